#!/usr/bin/env python3
"""Plays a UCI engine against Fairy-Stockfish (or another engine), with Fairy-Stockfish as the referee.

Each move of either side is checked against the legal moves a separate Fairy-Stockfish
process lists (`go perft 1`); an illegal move, a `bestmove 0000` while moves remain, or
no answer in time loses the game and is counted. A game ends where the referee's search finds no
move (`go depth 1`: mated, stalemated, a goal reached, as the variant's rules say),
on the third occurrence of a position, on the fifty-move rule (chess-like variants),
or at --max-plies (a draw).

Example (the compiled chess sample against Fairy-Stockfish at Elo 1800, 20 games,
0.1 s a move):

    tools/uci_match.py --engine "target/release/zrfc uci zrf-samples/chess.zrf" \\
        --variant chess --games 20 --movetime 100 --elo 1800

Prints one line a game and a summary; exits 1 when the engine played an illegal move
(or answered none), 2 on a usage or start-up error. Needs Python 3.8 and only its
standard library.
"""

import argparse
import queue
import shlex
import subprocess
import sys
import threading
import time

FAIRY = "fairy-stockfish"
# Where Debian puts it when /usr/games is not on the PATH.
FAIRY_FALLBACK = "/usr/games/fairy-stockfish"


class Engine:
    """A UCI engine in a child process, read line by line with a deadline."""

    def __init__(self, command, name):
        self.name = name
        try:
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as error:
            raise SystemExit(f"error: cannot start {name} ({' '.join(command)}): {error}")
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def until(self, prefix, seconds):
        """The lines up to and including the first starting with `prefix`, or None
        when the engine ends or the time runs out first."""
        deadline = time.monotonic() + seconds
        seen = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return None
            if line is None:
                return None
            seen.append(line)
            if line.startswith(prefix):
                return seen

    def start(self, options):
        self.send("uci")
        if self.until("uciok", 30) is None:
            raise SystemExit(f"error: {self.name} did not answer uci")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.ready()

    def ready(self):
        self.send("isready")
        if self.until("readyok", 60) is None:
            raise SystemExit(f"error: {self.name} did not answer isready")

    def quit(self):
        self.send("quit")
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()


def position_command(moves):
    return "position startpos" + (" moves " + " ".join(moves) if moves else "")


class Referee:
    """Fairy-Stockfish asked for the legal moves, the position's FEN and the result."""

    def __init__(self, fairy, variant):
        self.engine = Engine([fairy], "the referee")
        self.engine.start([("UCI_Variant", variant)])

    def legal_moves(self, moves):
        self.engine.send(position_command(moves))
        self.engine.send("go perft 1")
        lines = self.engine.until("Nodes searched", 60) or []
        moves = set()
        for line in lines:
            move, colon, count = line.partition(": ")
            if colon and count.strip().isdigit() and " " not in move:
                moves.add(move)
        return moves

    def fen(self, moves):
        self.engine.send(position_command(moves))
        self.engine.send("d")
        for line in self.engine.until("Checkers", 30) or []:
            if line.startswith("Fen: "):
                return line[5:]
        return ""

    def result(self, moves):
        """None while the game goes on, else 'loss' (for the side to move) or 'draw':
        the referee's search finds no move (mate, stalemate, a flag reached, ...)."""
        self.engine.send(position_command(moves))
        self.engine.send("go depth 1")
        lines = self.engine.until("bestmove", 30) or []
        if not lines or lines[-1].split()[1:2] != ["(none)"]:
            return None
        return "loss" if any("score mate 0" in l for l in lines) else "draw"


def play_game(players, referee, args):
    """Plays one game; `players` is [first mover, second mover]. Returns (winner index
    or None, reason, illegal move by whom or None, plies)."""
    moves = []
    seen = {}
    for engine in players:
        engine.send("ucinewgame")
        engine.ready()
    while True:
        side = len(moves) % 2
        result = referee.result(moves)
        if result == "loss":
            return 1 - side, "the side to move has lost", None, len(moves)
        if result == "draw":
            return None, "no move (stalemate)", None, len(moves)
        legal = referee.legal_moves(moves)
        fen = referee.fen(moves)
        fields = fen.split(" ")
        key = " ".join(fields[:4])
        seen[key] = seen.get(key, 0) + 1
        if seen[key] >= 3:
            return None, "third repetition", None, len(moves)
        if args.fifty and len(fields) > 4 and fields[4].isdigit() and int(fields[4]) >= 100:
            return None, "fifty-move rule", None, len(moves)
        if len(moves) >= args.max_plies:
            return None, f"{args.max_plies} plies", None, len(moves)
        engine = players[side]
        engine.send(position_command(moves))
        engine.send(f"go movetime {args.movetime}")
        answer = engine.until("bestmove", args.movetime / 1000 * 10 + 10)
        if answer is None:
            return 1 - side, f"{engine.name} did not answer in time", None, len(moves)
        words = answer[-1].split()
        move = words[1] if len(words) > 1 else "0000"
        if move not in legal:
            reason = f"{engine.name} played {move}, not legal after {position_command(moves)}"
            return 1 - side, reason, engine.name, len(moves)
        moves.append(move)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Fairy-Stockfish comes from Debian's package fairy-stockfish.",
    )
    parser.add_argument("--engine", required=True, help="the command that starts the UCI engine tested")
    parser.add_argument("--engine-option", action="append", default=[], metavar="NAME=VALUE",
                        help="a setoption for the tested engine (repeatable)")
    parser.add_argument("--variant", default="chess", help="Fairy-Stockfish's UCI_Variant (default chess)")
    parser.add_argument("--games", type=int, default=2, help="games, sides alternating (default 2)")
    parser.add_argument("--movetime", type=int, default=100, help="milliseconds a move (default 100)")
    strength = parser.add_mutually_exclusive_group()
    strength.add_argument("--elo", type=int, help="Fairy-Stockfish's UCI_Elo (1350 to 2850)")
    strength.add_argument("--skill", type=int, help="Fairy-Stockfish's Skill Level (-20 to 20)")
    parser.add_argument("--max-plies", type=int, default=400, help="a draw after this many plies (default 400)")
    parser.add_argument("--no-fifty", dest="fifty", action="store_false",
                        help="no fifty-move rule (for games without it)")
    parser.add_argument("--fairy", default=None, help="the Fairy-Stockfish program (default: from the PATH)")
    parser.add_argument("--opponent", default=None,
                        help="the command of another UCI engine to play instead of Fairy-Stockfish "
                             "(an earlier build, say); Fairy-Stockfish still referees")
    args = parser.parse_args()
    if args.games < 1 or args.movetime < 1:
        parser.error("--games and --movetime must be at least 1")
    if args.opponent is not None and (args.elo is not None or args.skill is not None):
        parser.error("--elo and --skill set Fairy-Stockfish's strength, not --opponent's")

    fairy = args.fairy
    if fairy is None:
        import shutil

        fairy = shutil.which(FAIRY) or (FAIRY_FALLBACK if shutil.which(FAIRY_FALLBACK) else None)
        if fairy is None:
            print("error: fairy-stockfish not found (apt-get install fairy-stockfish)", file=sys.stderr)
            return 2

    engine = Engine(shlex.split(args.engine), "engine")
    options = []
    for option in args.engine_option:
        name, _, value = option.partition("=")
        options.append((name, value))
    engine.start(options)
    if args.opponent is not None:
        opponent = Engine(shlex.split(args.opponent), "opponent")
        opponent_options = []
    else:
        opponent = Engine([fairy], "fairy-stockfish")
        opponent_options = [("UCI_Variant", args.variant)]
    if args.elo is not None:
        opponent_options += [("UCI_LimitStrength", "true"), ("UCI_Elo", args.elo)]
    if args.skill is not None:
        opponent_options.append(("Skill Level", args.skill))
    opponent.start(opponent_options)
    referee = Referee(fairy, args.variant)

    points = 0.0
    tally = {"win": 0, "draw": 0, "loss": 0}
    illegal = 0
    for game in range(args.games):
        engine_side = game % 2
        players = [engine, opponent] if engine_side == 0 else [opponent, engine]
        winner, reason, offender, plies = play_game(players, referee, args)
        if offender == engine.name:
            illegal += 1
        if winner is None:
            outcome = "draw"
            points += 0.5
        elif winner == engine_side:
            outcome = "win"
            points += 1
        else:
            outcome = "loss"
        tally[outcome] += 1
        colour = "first" if engine_side == 0 else "second"
        print(f"game {game + 1}: engine moves {colour}: {outcome} after {plies} plies ({reason})", flush=True)

    for process in (engine, opponent, referee.engine):
        process.quit()
    print(
        f"engine: {points:g}/{args.games} ({tally['win']} won, {tally['draw']} drawn, "
        f"{tally['loss']} lost), {illegal} illegal moves"
    )
    return 1 if illegal else 0


if __name__ == "__main__":
    sys.exit(main())
