# Refusals shared by every command (src/service/error.rs, src/service/play.rs).

error-option-too-long = `{ $option }` is too long ({ $count } characters; at most { $limit }).
error-thread-move-failed = Sorry, I could not move the game to its thread.
