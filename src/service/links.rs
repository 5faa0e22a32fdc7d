//! Signed links to the web board. A player's link names the game, the
//! player and an expiry, signed with HMAC-SHA256 under the server's secret,
//! so only the bot can make one; the web adapter exchanges it for a session
//! (the same kind of signed value, for the user alone) on the first visit.
//!
//! A token is `game.user.expiry.mac`: the user as hexadecimal UTF-8 (ids
//! are platform text), the expiry in unix ms, the MAC over the purpose and
//! the three fields, hexadecimal. The secret is never logged.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// How long a player's link is valid (they ask the bot for a new one).
pub const LINK_VALID_MS: i64 = 24 * 60 * 60 * 1000;
/// How long a browser session lasts once a link was used.
pub const SESSION_VALID_MS: i64 = 30 * 24 * 60 * 60 * 1000;

/// What a token is for: a link grants one game, a session its user.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Purpose {
    Link,
    Session,
}

impl Purpose {
    const fn tag(self) -> &'static str {
        match self {
            Purpose::Link => "link",
            Purpose::Session => "session",
        }
    }
}

/// What a valid token grants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grant {
    /// The game (0 for a session, which is not tied to one).
    pub game: i64,
    pub user: String,
    pub expires_ms: i64,
}

/// Why a token was refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    #[error("the token is malformed")]
    Malformed,
    #[error("the token's signature does not match")]
    Forged,
    #[error("the token has expired")]
    Expired,
}

/// The web board's public address and the secret its links are signed with.
#[derive(Clone)]
pub struct WebLinks {
    public_url: String,
    secret: Vec<u8>,
}

impl std::fmt::Debug for WebLinks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the secret.
        f.debug_struct("WebLinks")
            .field("public_url", &self.public_url)
            .finish_non_exhaustive()
    }
}

impl WebLinks {
    pub fn new(public_url: &str, secret: &[u8]) -> WebLinks {
        WebLinks {
            public_url: public_url.trim_end_matches('/').to_owned(),
            secret: secret.to_vec(),
        }
    }

    /// The address players' links start with (`https://chess.example.org`).
    pub fn public_url(&self) -> &str {
        &self.public_url
    }

    /// Whether the board is served over https (cookies are then `Secure`).
    pub fn is_https(&self) -> bool {
        self.public_url.starts_with("https://")
    }

    /// The page anyone may watch game `game` on.
    pub fn watch_url(&self, game: i64) -> String {
        format!("{}/game/{game}", self.public_url)
    }

    /// `user`'s own link to play game `game`, valid until `expires_ms`.
    pub fn play_url(&self, game: i64, user: &str, expires_ms: i64) -> String {
        let token = self.sign(Purpose::Link, game, user, expires_ms);
        format!("{}/play/{game}?t={token}", self.public_url)
    }

    pub fn sign(&self, purpose: Purpose, game: i64, user: &str, expires_ms: i64) -> String {
        let user_hex = hex(user.as_bytes());
        let mac = self.mac(purpose, game, &user_hex, expires_ms);
        format!("{game}.{user_hex}.{expires_ms}.{}", hex(&mac))
    }

    /// Checks a token's form, signature (in constant time) and expiry.
    pub fn verify(&self, purpose: Purpose, token: &str, now_ms: i64) -> Result<Grant, LinkError> {
        let mut parts = token.split('.');
        let (Some(game), Some(user_hex), Some(expires), Some(mac), None) = (
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
        ) else {
            return Err(LinkError::Malformed);
        };
        let game: i64 = game.parse().map_err(|_| LinkError::Malformed)?;
        let expires_ms: i64 = expires.parse().map_err(|_| LinkError::Malformed)?;
        let user = unhex(user_hex)
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .ok_or(LinkError::Malformed)?;
        let mac = unhex(mac).ok_or(LinkError::Malformed)?;
        let check = self.keyed(purpose, game, user_hex, expires_ms);
        check.verify_slice(&mac).map_err(|_| LinkError::Forged)?;
        if expires_ms <= now_ms {
            return Err(LinkError::Expired);
        }
        Ok(Grant {
            game,
            user,
            expires_ms,
        })
    }

    fn keyed(&self, purpose: Purpose, game: i64, user_hex: &str, expires_ms: i64) -> Hmac<Sha256> {
        let mut mac =
            <Hmac<Sha256> as KeyInit>::new_from_slice(&self.secret).expect("HMAC takes any key");
        mac.update(
            format!(
                "chessbot-web:{}:{game}:{user_hex}:{expires_ms}",
                purpose.tag()
            )
            .as_bytes(),
        );
        mac
    }

    fn mac(&self, purpose: Purpose, game: i64, user_hex: &str, expires_ms: i64) -> Vec<u8> {
        self.keyed(purpose, game, user_hex, expires_ms)
            .finalize()
            .into_bytes()
            .to_vec()
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || text.len() > 512 {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn links() -> WebLinks {
        WebLinks::new("https://chess.example.org/", b"a secret of the server")
    }

    #[test]
    fn a_signed_link_verifies_for_its_purpose_only() {
        let links = links();
        let url = links.play_url(12, "alice", 5_000);
        let token = url.split("?t=").nth(1).expect("token");
        assert!(url.starts_with("https://chess.example.org/play/12?t="));
        let grant = links.verify(Purpose::Link, token, 4_999).expect("valid");
        assert_eq!((grant.game, grant.user.as_str()), (12, "alice"));
        assert_eq!(
            links.verify(Purpose::Session, token, 0),
            Err(LinkError::Forged)
        );
        assert_eq!(
            links.verify(Purpose::Link, token, 5_000),
            Err(LinkError::Expired)
        );
    }

    #[test]
    fn any_change_to_a_token_is_refused() {
        let links = links();
        let token = links.sign(Purpose::Link, 12, "alice", 5_000);
        let other_game = token.replacen("12.", "13.", 1);
        assert_eq!(
            links.verify(Purpose::Link, &other_game, 0),
            Err(LinkError::Forged)
        );
        let other_user = links.sign(Purpose::Link, 12, "bob", 5_000);
        let spliced = format!(
            "{}.{}",
            other_user.rsplit_once('.').unwrap().0,
            token.rsplit_once('.').unwrap().1
        );
        assert_eq!(
            links.verify(Purpose::Link, &spliced, 0),
            Err(LinkError::Forged)
        );
        let later = token.replacen(".5000.", ".9000.", 1);
        assert_eq!(
            links.verify(Purpose::Link, &later, 0),
            Err(LinkError::Forged)
        );
        let other_secret = WebLinks::new("https://chess.example.org", b"another");
        assert_eq!(
            other_secret.verify(Purpose::Link, &token, 0),
            Err(LinkError::Forged)
        );
        for bad in [
            "",
            "1.2.3",
            "x.61.5.00",
            "1.6.5.00",
            "1.61.5.zz",
            "1.61.5.00.1",
        ] {
            assert_eq!(
                links.verify(Purpose::Link, bad, 0),
                Err(LinkError::Malformed),
                "{bad}"
            );
        }
    }

    #[test]
    fn the_secret_is_never_shown() {
        assert!(!format!("{:?}", links()).contains("secret of"));
    }
}
