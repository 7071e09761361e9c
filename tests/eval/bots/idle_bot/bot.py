"""A bot that only searches: it never eats, so hunger or a monster ends its game."""

from nle import nethack

ACTIONS = list(nethack.ACTIONS)
SEARCH = ACTIONS.index(nethack.Command.SEARCH)
ESC = ACTIONS.index(nethack.Command.ESC)
MORE = ACTIONS.index(nethack.MiscAction.MORE)


class IdleBot:
    def reset(self, observation):
        pass

    def act(self, observation):
        in_yn, in_getlin, waiting_for_space = (int(v) for v in observation["misc"])
        if waiting_for_space:
            return MORE
        if in_yn or in_getlin:
            return ESC
        return SEARCH


def make_agent():
    return IdleBot()
