# The console adapter's own words (src/platform/console).

console-deadline = Deadline: { $when }
console-deadline-in = in { $left }
console-deadline-passed = passed
