# Conditional moves (issue 19): answers entered in advance in
# correspondence games, played as soon as the opponent moves into them.

conditional-live = Conditional moves are for correspondence games; this one is live ({ $time }), so every move is made at the board.
conditional-empty = That line has no moves. Write the moves one after another, starting with your opponent's next move, e.g. `/conditional add line:"Nxd5 Qxd5 Nc3"`.
conditional-too-long = That line has { $moves } moves; a line may have at most { $limit } (both sides' moves counted).
conditional-bad-move-first = The first move of the line does not fit: { $reason }
conditional-bad-move = Move { $number } of the line (after { $before }) does not fit: { $reason }
conditional-after-end = The game would be over after { $last }: move { $number } of the line could never be played.
conditional-no-answer = The line ends with your opponent's move { $last }: add your answer to it (a line alternates their moves and yours, and ends with yours).
conditional-conflict = That line conflicts with one you entered before: after { $before } you answer { $existing }, and this line says { $new }. A position has one answer; to change it, `/conditional clear` and enter your lines again.
conditional-conflict-first = That line conflicts with one you entered before: your next move there is { $existing }, and this line says { $new }. To change it, `/conditional clear` and enter your lines again.
conditional-too-big = Your conditional moves in this game would hold { $moves } moves; at most { $limit }. `/conditional clear` starts again.
conditional-added = Conditional line added: { $line }. { $opponent } does not see it; if they play into it, your answer is played at once.
conditional-added-own-turn = It is your move now: play { $first } with `/move` as usual, and the answers follow from there.
conditional-already = You have already entered that line: { $line }.
conditional-none = You have no conditional moves in this game. Add a line with `/conditional add line:"…"`: your opponent's next move, your answer, their move, and so on.
conditional-list-title = Your conditional moves in game #{ $id } (you play { $color }; only you see them):
conditional-list-line = • { $line }
conditional-list-footer = { $lines ->
    [one] 1 line
   *[other] { $lines } lines
}, { $moves ->
    [one] 1 move
   *[other] { $moves } moves
}. `/conditional clear` removes them.
conditional-cleared = Your conditional moves in this game are removed.
conditional-nothing-to-clear = You have no conditional moves in this game: nothing was changed.
conditional-played = { $name }'s conditional move: { $answer }
conditional-missed = Game #{ $id } against { $opponent }: they played { $san }, which was not in your conditional moves, so those are cleared. It is your move.
conditional-missed-own = Game #{ $id }: you played { $san }, which was not in your conditional moves, so those are cleared.

## Discord command names (the Chinese ones are what a Chinese client shows)
cmd-conditional = conditional
cmd-conditional-desc = Correspondence games: answers played the moment your opponent moves.
cmd-conditional-add = add
cmd-conditional-add-desc = Add a line: their move, your answer, their move, … (only you see it).
cmd-conditional-list = list
cmd-conditional-list-desc = Your conditional moves in this game (only you see them).
cmd-conditional-clear = clear
cmd-conditional-clear-desc = Remove all your conditional moves in this game.
opt-line = line
opt-line-desc = Moves in order, e.g. Nxd5 Qxd5 Nc3 (on your own turn, start with your move)
