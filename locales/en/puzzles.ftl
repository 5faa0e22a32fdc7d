# Puzzles: /puzzle, answers with /move, the hint, the puzzle ladder
# (src/service/puzzles.rs).

puzzle-title = Puzzle #{ $id }
puzzle-new = Puzzle #{ $id } ({ $points } points). Answer with `/move`; a wrong move ends the attempt.
puzzle-still-open = You are solving puzzle #{ $id }. Answer with `/move`.
puzzle-so-far = So far: { $line }
puzzle-to-play = { $color } to play and win.
puzzle-right = { $played } is right. The reply: { $reply }.
puzzle-solved = { $played } — solved!
puzzle-wrong = { $played } is not the move. The attempt is over.
puzzle-solution = The solution: { $line }
puzzle-points = Puzzle points: { $before } → { $points } ({ $change }), { $level }.
puzzle-themes = Themes: { $themes }
puzzle-next = `/puzzle` for the next one.
puzzle-hint-button = Hint
puzzle-hint = Hint: move the { $piece } on { $square }.
puzzle-none-left = No puzzle is left near your puzzle points ({ $points }): you have tried every one at this level. New puzzles come from the server's games and imports.
puzzle-already-open = You already have a puzzle open: answer it with `/move` (or see it again with `/puzzle`).
puzzle-over = That puzzle attempt is over. `/puzzle` gives you a new one.
puzzle-moved-on = That answer came too late: the puzzle has moved on. `/puzzle` shows where it stands.
puzzle-not-found = That puzzle no longer exists.
puzzle-ladder-title = Puzzle ladder (page { $page })
puzzle-ladder-line = { $rank }. { $name } — { $points } points, { $level } — { $solved }/{ $attempts } solved
puzzle-ladder-empty = The puzzle ladder is empty: nobody has finished a puzzle here yet. Try `/puzzle`.
puzzle-ladder-no-page = There is no page { $page } of the puzzle ladder.
puzzle-profile-line = { $points } points, { $level } — { $solved }/{ $attempts } solved
profile-field-puzzles = Puzzles
puzzle-theme-mate-in-1 = mate in 1
puzzle-theme-mate-in-2 = mate in 2
puzzle-theme-mate-in-3-plus = mate in 3 or more
puzzle-theme-promotion = promotion
puzzle-theme-material = winning material
puzzle-theme-endgame = endgame
puzzle-theme-fork = fork
puzzle-theme-pin = pin
