# 与电脑对弈（/play）和对局分析（/analyze）。

engine-missing = 这个机器人没有安装国际象棋引擎，所以暂时不能与电脑对弈，也不能分析对局。机器人的管理者可以安装 Stockfish（`apt-get install stockfish`）或设置 `engine_path`。
engine-bad-level = `level`：没有难度 { $level }，请选择 1（入门）到 8（全力）之间的难度。
engine-channel-busy = 这个频道里有一盘棋正在进行。请先下完，或换一个频道开局。
engine-play-started = { $player } 对阵 { $computer }（{ $time }，不计积分）。
engine-no-such-game = 在这个服务器上找不到第{ $id }局。
engine-no-game-here = 这个频道里还没有对局。请指明要分析的对局，例如 `/analyze game:12`。
engine-analysis-active = 第{ $id }局还在进行中：只能分析已经结束的对局，这样谁都不能在对局中借助引擎。
engine-nothing-to-analyse = 第{ $id }局一步棋也没有，无从分析。
engine-already-analysing = 第{ $id }局正在分析中，结果会发在这里。
engine-queue-full = 这个服务器已有 { $count } 个分析在排队，请等其中一个完成后再试。
engine-progress = 正在分析第{ $id }局：第{ $done }步，共{ $total }步……
engine-analysis-failed = 抱歉，第{ $id }局的分析失败了：引擎没有回应。请稍后再用 `/analyze` 试一次。
engine-result-title = 第{ $id }局分析：{ $white }（白方）对 { $black }（黑方），{ $result }。
engine-result-title-pasted = 粘贴棋局分析：{ $white }（白方）对 { $black }（黑方），{ $result }。
engine-result-title-pasted-unnamed = 粘贴棋局分析：{ $result }。
engine-progress-pasted = 正在分析粘贴的棋局：第{ $done }步，共{ $total }步……
engine-analysis-failed-pasted = 抱歉，粘贴棋局的分析失败了：引擎没有回应。请稍后再用 `/analyze` 试一次。
engine-analyze-one-of = 请给出 `game:`（本服务器的一盘棋）或 `pgn:`（任何一盘棋，文字或附上的 `.pgn` 文件）中的一个。
engine-pasted-too-long = 这盘棋有{ $plies }步（单方）；粘贴的棋局最多分析{ $max }步（单方）。
engine-opening = 开局：{ $opening }
engine-player-line = { $named ->
        [yes] { $name }（{ $side ->
            [white] 白方
           *[black] 黑方
        }）
       *[no] { $side ->
            [white] 白方
           *[black] 黑方
        }
    }：{ $moved ->
        [yes] 准确率 { $accuracy }%
       *[no] 没有走棋
    }；不精确 { $inaccuracies } 步，错着 { $mistakes } 步，漏着 { $blunders } 步。
engine-worst-heading = 最差的几步：
engine-worst-move = • { $played }（{ $before } → { $after }）
engine-worst-move-better = • { $played }（{ $before } → { $after }）；更好的是 { $best }
engine-judgement = { $judgement ->
        [inaccuracy] 不精确。
        [mistake] 错着。
       *[blunder] 漏着。
    }
engine-judgement-better = { $judgement ->
        [inaccuracy] 不精确。
        [mistake] 错着。
       *[blunder] 漏着。
    }更好的是 { $best }。
# 电脑在对局、棋盘和历史记录里的名字：引擎（Stockfish；lichess 的变体中为 Fairy-Stockfish）和难度（PGN 用英文写，"Stockfish level N"）。
engine-computer-name = { $engine } 难度{ $level }
engine-needs-fairy = 电脑要下或分析 `{ $variant }`，需要 Fairy-Stockfish，而这里没有安装（Debian：`apt-get install fairy-stockfish`）。标准国际象棋和960国际象棋用 Stockfish 即可。
