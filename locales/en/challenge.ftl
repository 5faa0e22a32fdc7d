# Challenges (src/service/challenges.rs).

challenge-fen-invalid = `fen`: { $reason }
challenge-fen-over = `fen`: that position is already over; pick one that can be played.
challenge-self = You can't challenge yourself. Leave out the opponent to post an open challenge anyone can accept.
challenge-already-waiting = You already have a challenge waiting for { $name }. Cancel it first to send a new one.
challenge-channel-busy = A game is in progress in this channel. Finish it, or challenge from another channel.
challenge-anyone = anyone
challenge-colours-random = colours drawn at random
challenge-plays-white = { $name } plays white
challenge-plays-black = { $name } plays black
challenge-issued-rated = { $challenger } challenges { $opponent } to a rated game ({ $time }; { $colour }).
challenge-issued-unrated = { $challenger } challenges { $opponent } to an unrated game ({ $time }; { $colour }).
challenge-stakes = Stakes for { $name }: { $stakes }.
challenge-from-position = From a set position.
challenge-expires = The challenge expires in { $hours } h.
challenge-pair-limit = You two have already played { $count ->
    [one] { $count } rated game
   *[other] { $count } rated games
} in the last 24 hours (this server allows { $limit }). Play an unrated game (`rated:false`) instead.
challenge-not-found = I can't find that challenge.
challenge-expired = That challenge has expired. Send a new one with `/challenge`.
challenge-none-for-you = There is no challenge for you in this channel.
challenge-already-accepted = That challenge has already been accepted.
challenge-was-declined = That challenge was declined.
challenge-was-cancelled = That challenge was cancelled.
challenge-accept-own = You can't accept your own challenge. Use Cancel to withdraw it.
challenge-not-for-you = That challenge is for { $name }, not for you.
challenge-answered-already = That challenge was answered a moment ago; nothing was changed.
challenge-channel-busy-now = A game is already in progress in this channel; finish it first.
challenge-thread-name = { $white } vs { $black }
challenge-decline-not-yours = Only the challenged player can decline this challenge.
challenge-decline-own = That is your own challenge: use Cancel to withdraw it.
challenge-decline-open = An open challenge can't be declined; just leave it, and it expires.
challenge-cancel-not-yours = Only the challenger can cancel a challenge.
button-accept = Accept
button-decline = Decline
button-cancel = Cancel
