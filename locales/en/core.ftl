# Words used everywhere: durations, the apology for the bot's own errors.

days = { $count ->
    [one] { $count } day
   *[other] { $count } days
}
error-apology = Sorry, something went wrong on my side and nothing was changed. Please try again in a moment.
