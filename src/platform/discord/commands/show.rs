//! `/show fen:<FEN>` and `/show pgn:<text>` or `file:<.pgn attachment>`.
//! The adapter's only work here is fetching an attached file (capped in
//! size before it is downloaded, and read as UTF-8; `/analyze` takes a
//! pasted game the same way); reading the FEN or PGN is the service's.

use poise::serenity_prelude as serenity;

use super::{lang_of, refuse, run};
use crate::{
    platform::discord::{Context, Error},
    service::{Command, MAX_SHOW_PGN_BYTES},
    t,
};

/// Show any position (FEN) or game (PGN, pasted or as a .pgn file).
#[poise::command(slash_command, guild_only)]
pub async fn show(
    ctx: Context<'_>,
    #[description = "A position in FEN, like rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]
    #[max_length = 200]
    fen: Option<String>,
    #[description = "A game in PGN, pasted: 1. e4 e5 2. Nf3 Nc6 …"]
    #[max_length = 6000]
    pgn: Option<String>,
    #[description = "A game in PGN, as a .pgn file"] file: Option<serenity::Attachment>,
) -> Result<(), Error> {
    let pgn = match pasted_text(ctx, pgn, file).await {
        Ok(pgn) => pgn,
        Err(refusal) => return refuse(ctx, &refusal).await,
    };
    run(ctx, Command::Show { fen, pgn }).await
}

/// A game pasted as `pgn:` text or attached as a `.pgn` file (at most one
/// of them), as text; `Err` holds the refusal to answer.
pub(super) async fn pasted_text(
    ctx: Context<'_>,
    pgn: Option<String>,
    file: Option<serenity::Attachment>,
) -> Result<Option<String>, String> {
    let lang = lang_of(ctx);
    match (pgn, file) {
        (Some(_), Some(_)) => Err(t!(lang, "pgn-text-or-file")),
        (Some(text), None) => Ok(Some(text)),
        (None, None) => Ok(None),
        (None, Some(file)) => {
            // Refused by its stated size before a byte is fetched.
            let size = usize::try_from(file.size).unwrap_or(usize::MAX);
            if size > MAX_SHOW_PGN_BYTES {
                return Err(t!(
                    lang,
                    "show-pgn-too-large",
                    bytes = size,
                    max = MAX_SHOW_PGN_BYTES
                ));
            }
            let bytes = file.download().await.map_err(|e| {
                tracing::warn!(error = %e, "could not download an attached PGN");
                t!(lang, "error-apology")
            })?;
            String::from_utf8(bytes)
                .map(Some)
                .map_err(|_| t!(lang, "show-pgn-not-text"))
        }
    }
}
