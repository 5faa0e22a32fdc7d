# Playing the computer (/play) and game analysis (/analyze).

engine-missing = No chess engine is installed on this bot, so playing the computer and game analysis are not available. The bot's operator can install Stockfish (`apt-get install stockfish`) or set `engine_path`.
engine-bad-level = `level`: { $level } is not a level; pick one from 1 (beginner) to 8 (full strength).
engine-channel-busy = A game is in progress in this channel. Finish it, or play from another channel.
engine-play-started = { $player } plays { $computer } ({ $time }, unrated).
engine-no-such-game = I can't find game #{ $id } on this server.
engine-no-game-here = There is no game in this channel yet. Name one: `/analyze game:12`.
engine-analysis-active = Game #{ $id } is still being played: analysis is only for finished games, so that nobody gets engine help during a game.
engine-nothing-to-analyse = Game #{ $id } has no moves to analyse.
engine-already-analysing = Game #{ $id } is being analysed already; the result will be posted here.
engine-queue-full = { $count ->
    [one] An analysis is already waiting on this server. Please ask again when it has finished.
   *[other] { $count } analyses are already waiting on this server. Please ask again when one has finished.
}
engine-progress = Analysing game #{ $id }: move { $done } of { $total }…
engine-analysis-failed = Sorry, the analysis of game #{ $id } failed: the engine did not answer. Please try `/analyze` again later.
engine-result-title = Analysis of game #{ $id }: { $white } (White) vs { $black } (Black), { $result }.
engine-result-title-pasted = Analysis of the pasted game: { $white } (White) vs { $black } (Black), { $result }.
engine-result-title-pasted-unnamed = Analysis of the pasted game: { $result }.
engine-progress-pasted = Analysing the pasted game: move { $done } of { $total }…
engine-analysis-failed-pasted = Sorry, the analysis of the pasted game failed: the engine did not answer. Please try `/analyze` again later.
engine-analyze-one-of = Give one of `game:` (a game of this server) or `pgn:` (any game, as text or an attached `.pgn` file).
engine-pasted-too-long = That game has { $plies } half-moves; a pasted game can be analysed up to { $max } half-moves.
engine-opening = Opening: { $opening }
engine-player-line = { $named ->
        [yes] { $name } ({ $side ->
            [white] White
           *[black] Black
        })
       *[no] { $side ->
            [white] White
           *[black] Black
        }
    }: { $moved ->
        [yes] accuracy { $accuracy }%
       *[no] no moves
    }; { $inaccuracies ->
        [one] 1 inaccuracy
       *[other] { $inaccuracies } inaccuracies
    }, { $mistakes ->
        [one] 1 mistake
       *[other] { $mistakes } mistakes
    }, { $blunders ->
        [one] 1 blunder
       *[other] { $blunders } blunders
    }.
engine-worst-heading = Worst moves:
engine-worst-move = • { $played } ({ $before } → { $after })
engine-worst-move-better = • { $played } ({ $before } → { $after }); better was { $best }
engine-judgement = { $judgement ->
        [inaccuracy] Inaccuracy.
        [mistake] Mistake.
       *[blunder] Blunder.
    }
engine-judgement-better = { $judgement ->
        [inaccuracy] Inaccuracy.
        [mistake] Mistake.
       *[blunder] Blunder.
    } { $best } was best.
# The computer's name in games, boards and history: the engine (Stockfish, or Fairy-Stockfish in lichess's variants) and its level (PGN writes it in English, "Stockfish level N").
engine-computer-name = { $engine } level { $level }
engine-needs-fairy = The computer plays and analyses `{ $variant }` only with Fairy-Stockfish, which is not installed here (Debian: `apt-get install fairy-stockfish`). Standard chess and Chess960 work with Stockfish.
