"""A slow bot that only presses Esc: the game clock never moves and the hero never dies, and
each action takes 20 ms, so its episode lasts minutes, until a cap (the no-progress cap
after 10,000 such actions) or Ctrl-C."""

import time

from nle import nethack

ESC = list(nethack.ACTIONS).index(nethack.Command.ESC)


class EscapeBot:
    def reset(self, observation):
        pass

    def act(self, observation):
        time.sleep(0.02)  # a bot that thinks: Ctrl-C must find its episode in flight
        return ESC


def make_agent():
    return EscapeBot()
