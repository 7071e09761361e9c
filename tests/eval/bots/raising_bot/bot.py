"""A bot that searches five times, then raises: its episode must end as an error row."""

from nle import nethack

SEARCH = list(nethack.ACTIONS).index(nethack.Command.SEARCH)


class RaisingBot:
    def reset(self, observation):
        self.actions = 0

    def act(self, observation):
        self.actions += 1
        if self.actions > 5:
            raise RuntimeError("the raising bot lost its map")
        return SEARCH


def make_agent():
    return RaisingBot()
