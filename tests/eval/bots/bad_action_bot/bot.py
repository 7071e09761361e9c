"""A bot that answers with an index past the end of nle.nethack.ACTIONS."""


class BadActionBot:
    def reset(self, observation):
        pass

    def act(self, observation):
        return 999


def make_agent():
    return BadActionBot()
