"""A tiny bot for the NetHackers contract: it walks one way until a wall stops it, turns,
and searches every fourth action; it dismisses --More-- and escapes any question."""

from nle import nethack

ACTIONS = list(nethack.ACTIONS)
MOVES = [ACTIONS.index(d) for d in nethack.CompassDirection]
SEARCH = ACTIONS.index(nethack.Command.SEARCH)
ESC = ACTIONS.index(nethack.Command.ESC)
MORE = ACTIONS.index(nethack.MiscAction.MORE)


class TinyBot:
    def reset(self, observation):
        self.actions = 0
        self.heading = 0
        self.last_position = None

    def act(self, observation):
        in_yn, in_getlin, waiting_for_space = (int(v) for v in observation["misc"])
        if waiting_for_space:
            return MORE
        if in_yn or in_getlin:
            return ESC
        self.actions += 1
        if self.actions % 4 == 0:
            return SEARCH
        bl = observation["blstats"]
        position = (int(bl[nethack.NLE_BL_X]), int(bl[nethack.NLE_BL_Y]))
        if position == self.last_position:
            self.heading = (self.heading + 3) % len(MOVES)
        self.last_position = position
        return MOVES[self.heading]


def make_agent():
    return TinyBot()
