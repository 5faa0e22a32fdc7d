//! The club's pages on the web: what a server's tournament, ladder,
//! profile and game pages show, read from the store and shaped for
//! reading (names resolved, points and results in words), with no HTML in
//! sight: the web adapter draws them. A server's pages exist only while its
//! moderators have turned them on (`/settings web`), under an unguessable
//! slug; any other address is "not found", never a hint that it exists.
//!
//! - [`ladder`]: the leaderboard by pages, and a player's profile.
//! - [`viewer`]: one game, move by move, with its analysis if it has one.
//! - The tournament page is built beside the other tournament views
//!   (`service::tournament::page`), whose private reading it shares.

mod ladder;
mod viewer;

pub use ladder::{LadderPage, LadderRow, ProfileGame, ProfilePage, LADDER_PAGE_SIZE};
pub use viewer::{ViewerPage, ViewerPly};

pub use super::tournament::{CardGame, PageBoard, PageRound, PlayerCard, TournamentPage};

use super::{Service, ServiceError};
use crate::{
    i18n::Lang,
    store::{ServerSettings, WebPages},
    t,
};

/// A server whose pages are on, as a request for one of them found it.
#[derive(Clone, Debug)]
pub struct Club {
    pub settings: ServerSettings,
    /// The address part of its pages.
    pub slug: String,
}

impl Club {
    pub fn server(&self) -> &str {
        &self.settings.server_id
    }

    /// Whether search engines and the front page may list it.
    pub fn is_public(&self) -> bool {
        self.settings.web_pages == WebPages::Public
    }

    /// The path of one of its pages (`/club/{slug}{rest}`).
    pub fn path(&self, rest: &str) -> String {
        club_path(&self.slug, rest)
    }
}

/// `text` safe as one path segment: user ids are Discord snowflakes, but
/// console users may be any name (`张伟`), percent-encoded here.
pub fn path_part(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn club_path(slug: &str, rest: &str) -> String {
    format!("/club/{slug}{rest}")
}

/// A fresh slug: 128 random bits in 26 lowercase base-32 letters, which
/// no one guesses and every URL carries unescaped.
pub(super) fn new_slug() -> String {
    const ALPHABET: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz234567";
    let bits: u128 = rand::random();
    (0..26)
        .map(|i| ALPHABET[((bits >> (i * 5)) & 31) as usize] as char)
        .collect()
}

/// `off`, `by link only`, `public` in the reader's words.
pub(super) fn pages_text(lang: Lang, pages: WebPages) -> String {
    match pages {
        WebPages::Off => t!(lang, "web-pages-value-off"),
        WebPages::Link => t!(lang, "web-pages-value-link"),
        WebPages::Public => t!(lang, "web-pages-value-public"),
    }
}

impl Service {
    /// The server whose pages live under `slug`, if they are on.
    pub async fn club(&self, slug: &str) -> Result<Option<Club>, ServiceError> {
        // Slugs are made by new_slug: anything else is not looked up.
        if slug.len() != 26
            || !slug
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        {
            return Ok(None);
        }
        Ok(self
            .store()
            .server_by_slug(slug)
            .await?
            .map(|settings| Club {
                slug: slug.to_owned(),
                settings,
            }))
    }

    /// The servers whose pages are public (for the site's front page).
    pub async fn public_clubs(&self) -> Result<Vec<Club>, ServiceError> {
        Ok(self
            .store()
            .public_servers(100)
            .await?
            .into_iter()
            .filter_map(|settings| {
                Some(Club {
                    slug: settings.web_slug.clone()?,
                    settings,
                })
            })
            .collect())
    }

    /// The full address of a page of `settings`' server (`rest` from
    /// `/`), if its pages are on and this process serves the web.
    pub(super) fn club_url(&self, settings: &ServerSettings, rest: &str) -> Option<String> {
        let links = self.web_links()?;
        let slug = settings.web_slug.as_deref()?;
        (settings.web_pages != WebPages::Off)
            .then(|| format!("{}{}", links.public_url(), club_path(slug, rest)))
    }

    /// [`Service::club_url`] for server `server`, read from the store.
    pub(super) async fn server_page_url(
        &self,
        server: &str,
        rest: &str,
    ) -> Result<Option<String>, ServiceError> {
        if self.web_links().is_none() {
            return Ok(None);
        }
        let settings = self.store().server(server).await?;
        Ok(self.club_url(&settings, rest))
    }

    /// Adds to `reply` a button opening the page at `rest` of `server`'s
    /// club pages, if they are on and this process serves the web.
    pub(super) async fn link_page(
        &self,
        server: &str,
        rest: &str,
        lang: Lang,
        reply: &mut super::Reply,
    ) -> Result<(), ServiceError> {
        if let Some(url) = self.server_page_url(server, rest).await? {
            reply.buttons.push(super::Button {
                id: url,
                label: t!(lang, "web-button-page"),
                style: super::ButtonStyle::Link,
            });
        }
        Ok(())
    }

    /// The language of a club's pages: the one asked for, else the
    /// server's language for public messages.
    pub async fn club_lang(&self, club: &Club, asked: Option<Lang>) -> Lang {
        match asked {
            Some(lang) => lang,
            None => super::lang::settings_lang(&club.settings),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_long_random_and_url_safe() {
        let a = new_slug();
        let b = new_slug();
        assert_eq!(a.len(), 26);
        assert_ne!(a, b);
        assert!(a
            .bytes()
            .all(|c| c.is_ascii_lowercase() || (b'2'..=b'7').contains(&c)));
    }
}
