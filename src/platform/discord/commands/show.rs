//! `/show fen:<FEN>` and `/show pgn:<text>` or `file:<.pgn attachment>`.
//! The adapter's only work here is fetching an attached file (capped in
//! size before it is downloaded, and read as UTF-8); reading the FEN or PGN
//! is the service's.

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
    let lang = lang_of(ctx);
    let pgn = match (pgn, file) {
        (Some(_), Some(_)) => return refuse(ctx, &t!(lang, "show-one-of")).await,
        (Some(text), None) => Some(text),
        (None, None) => None,
        (None, Some(file)) => {
            // Refused by its stated size before a byte is fetched.
            let size = usize::try_from(file.size).unwrap_or(usize::MAX);
            if size > MAX_SHOW_PGN_BYTES {
                let text = t!(
                    lang,
                    "show-pgn-too-large",
                    bytes = size,
                    max = MAX_SHOW_PGN_BYTES
                );
                return refuse(ctx, &text).await;
            }
            let bytes = match file.download().await {
                Ok(bytes) => bytes,
                Err(e) => {
                    tracing::warn!(error = %e, "could not download a /show attachment");
                    return refuse(ctx, &t!(lang, "error-apology")).await;
                }
            };
            match String::from_utf8(bytes) {
                Ok(text) => Some(text),
                Err(_) => return refuse(ctx, &t!(lang, "show-pgn-not-text")).await,
            }
        }
    };
    run(ctx, Command::Show { fen, pgn }).await
}
