//! The catalogues: one Fluent bundle per language, built once from the
//! `.ftl` files embedded by `build.rs`.

use std::{
    collections::{BTreeSet, HashMap},
    sync::LazyLock,
};

use fluent_bundle::{concurrent::FluentBundle, FluentArgs, FluentResource, FluentValue};
use fluent_syntax::ast;

use super::{Arg, Lang};

include!(concat!(env!("OUT_DIR"), "/catalogues.rs"));

type Bundle = FluentBundle<FluentResource>;

/// The bundle of each language (index: position in [`Lang::ALL`]).
static BUNDLES: LazyLock<Vec<Bundle>> =
    LazyLock::new(|| Lang::ALL.iter().map(|&lang| bundle(lang)).collect());

fn bundle(lang: Lang) -> Bundle {
    let id = lang
        .code()
        .parse()
        .unwrap_or_else(|_| unic_langid::LanguageIdentifier::default());
    let mut bundle = FluentBundle::new_concurrent(vec![id]);
    // No Unicode isolation marks around arguments: Discord and terminals
    // show them as stray characters, and names are sanitised already.
    bundle.set_use_isolating(false);
    for (folder, file, text) in CATALOGUES.iter().filter(|(l, ..)| *l == lang.code()) {
        let resource = match FluentResource::try_new((*text).to_owned()) {
            Ok(resource) => resource,
            Err((resource, errors)) => {
                // A test parses every catalogue, so this is a build that
                // skipped the tests: keep what parsed, say what did not.
                tracing::error!(catalogue = %format!("{folder}/{file}"), ?errors, "message catalogue has syntax errors");
                resource
            }
        };
        if let Err(errors) = bundle.add_resource(resource) {
            tracing::error!(catalogue = %format!("{folder}/{file}"), ?errors, "message catalogue repeats ids");
        }
    }
    bundle
}

fn bundle_of(lang: Lang) -> &'static Bundle {
    let index = Lang::ALL.iter().position(|&l| l == lang).unwrap_or(0);
    &BUNDLES[index]
}

/// The message `id` in `lang` with `args`. A message missing in `lang`
/// falls back to English; one missing everywhere shows its id (a test
/// keeps that from happening).
pub fn tr(lang: Lang, id: &str, args: &[(&str, Arg)]) -> String {
    super::memo::text_of(lang, id, args, || format(lang, id, args))
}

/// [`tr`] without [`super::memo`]: Fluent formats the message.
fn format(lang: Lang, id: &str, args: &[(&str, Arg)]) -> String {
    let mut fluent_args = FluentArgs::with_capacity(args.len());
    for (name, value) in args {
        let value = match value {
            Arg::Str(s) => FluentValue::from(s.as_str()),
            Arg::Num(n) => FluentValue::from(*n),
        };
        fluent_args.set(*name, value);
    }
    for bundle in [bundle_of(lang), bundle_of(Lang::En)] {
        if let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) {
            let mut errors = Vec::new();
            let text = bundle.format_pattern(pattern, Some(&fluent_args), &mut errors);
            if !errors.is_empty() {
                tracing::warn!(id, ?errors, "message formatted with errors");
            }
            return text.into_owned();
        }
    }
    tracing::warn!(id, %lang, "message id in no catalogue");
    id.to_owned()
}

/// Every message id of a language's catalogues.
pub fn catalogue_ids(lang: Lang) -> BTreeSet<String> {
    messages(lang).into_keys().collect()
}

/// The variables (`$name`) each message of a language uses, by id.
pub fn catalogue_variables(lang: Lang) -> HashMap<String, BTreeSet<String>> {
    messages(lang)
}

fn messages(lang: Lang) -> HashMap<String, BTreeSet<String>> {
    let mut out = HashMap::new();
    for (_, _, text) in CATALOGUES.iter().filter(|(l, ..)| *l == lang.code()) {
        let resource = match FluentResource::try_new((*text).to_owned()) {
            Ok(r) | Err((r, _)) => r,
        };
        for entry in resource.entries() {
            if let ast::Entry::Message(message) = entry {
                let mut vars = BTreeSet::new();
                if let Some(pattern) = &message.value {
                    pattern_variables(pattern, &mut vars);
                }
                for attribute in &message.attributes {
                    pattern_variables(&attribute.value, &mut vars);
                }
                out.insert(message.id.name.to_owned(), vars);
            }
        }
    }
    out
}

fn pattern_variables(pattern: &ast::Pattern<&str>, vars: &mut BTreeSet<String>) {
    for element in &pattern.elements {
        if let ast::PatternElement::Placeable { expression } = element {
            expression_variables(expression, vars);
        }
    }
}

fn expression_variables(expression: &ast::Expression<&str>, vars: &mut BTreeSet<String>) {
    match expression {
        ast::Expression::Select { selector, variants } => {
            inline_variables(selector, vars);
            for variant in variants {
                pattern_variables(&variant.value, vars);
            }
        }
        ast::Expression::Inline(inline) => inline_variables(inline, vars),
    }
}

fn inline_variables(inline: &ast::InlineExpression<&str>, vars: &mut BTreeSet<String>) {
    match inline {
        ast::InlineExpression::VariableReference { id } => {
            vars.insert(id.name.to_owned());
        }
        ast::InlineExpression::Placeable { expression } => expression_variables(expression, vars),
        ast::InlineExpression::FunctionReference { arguments, .. } => {
            for arg in &arguments.positional {
                inline_variables(arg, vars);
            }
            for arg in &arguments.named {
                inline_variables(&arg.value, vars);
            }
        }
        _ => {}
    }
}

/// Parse errors of every embedded catalogue, as `lang/file: error` lines.
pub fn catalogue_errors() -> Vec<String> {
    let mut out = Vec::new();
    for (lang, file, text) in CATALOGUES {
        if let Err((_, errors)) = FluentResource::try_new((*text).to_owned()) {
            for e in errors {
                out.push(format!("{lang}/{file}: {e:?}"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_catalogue_parses() {
        assert_eq!(catalogue_errors(), Vec::<String>::new());
        assert!(CATALOGUES.iter().any(|(l, ..)| *l == "en"));
        assert!(CATALOGUES.iter().any(|(l, ..)| *l == "zh-CN"));
    }

    #[test]
    fn english_plurals_and_chinese_counts() {
        assert_eq!(crate::t!(Lang::En, "days", count = 1), "1 day");
        assert_eq!(crate::t!(Lang::En, "days", count = 14), "14 days");
        assert_eq!(crate::t!(Lang::ZhCn, "days", count = 1), "1天");
    }

    #[test]
    fn missing_messages_fall_back() {
        assert_eq!(tr(Lang::ZhCn, "no-such-message", &[]), "no-such-message");
    }
}
