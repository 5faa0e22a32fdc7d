//! The languages the bot speaks, and how a platform's locale maps to one.

use std::fmt;

/// A language of the catalogues.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English: the fallback for every locale without a catalogue.
    #[default]
    En,
    /// Simplified Chinese (`zh-CN`).
    ZhCn,
}

impl Lang {
    /// Every language, English first.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::ZhCn];

    /// The language for a platform locale (`en-US`, `zh-CN`, `zh`): any
    /// Chinese locale reads Simplified Chinese (the only Chinese catalogue;
    /// a Traditional reader understands it better than English), anything
    /// else or nothing reads English.
    pub fn from_locale(locale: Option<&str>) -> Lang {
        match locale {
            Some(l) if l.trim().to_ascii_lowercase().starts_with("zh") => Lang::ZhCn,
            _ => Lang::En,
        }
    }

    /// A language named exactly (`en`, `zh-CN`, case-insensitive, `_` for
    /// `-`), as a setting takes it; `None` for anything else.
    pub fn parse(code: &str) -> Option<Lang> {
        match code.trim().to_ascii_lowercase().replace('_', "-").as_str() {
            "en" | "english" => Some(Lang::En),
            "zh-cn" | "zh" | "chinese" | "中文" | "简体中文" => Some(Lang::ZhCn),
            _ => None,
        }
    }

    /// The locale code of the catalogue folder (`en`, `zh-CN`).
    pub const fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::ZhCn => "zh-CN",
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locales_map_to_languages() {
        assert_eq!(Lang::from_locale(Some("zh-CN")), Lang::ZhCn);
        assert_eq!(Lang::from_locale(Some("zh-TW")), Lang::ZhCn);
        assert_eq!(Lang::from_locale(Some("en-US")), Lang::En);
        assert_eq!(Lang::from_locale(Some("fr")), Lang::En);
        assert_eq!(Lang::from_locale(None), Lang::En);
        assert_eq!(Lang::parse("zh_cn"), Some(Lang::ZhCn));
        assert_eq!(Lang::parse("EN"), Some(Lang::En));
        assert_eq!(Lang::parse("de"), None);
        for lang in Lang::ALL {
            assert_eq!(Lang::parse(lang.code()), Some(lang));
        }
    }
}
