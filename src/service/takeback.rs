//! Takebacks in casual games, as on lichess: a player asks to take back
//! their last move, the opponent accepts or declines. If the opponent has
//! already replied, the reply goes too, so the asker is to move again.
//!
//! A request is stored against the game's version and does not bump it, so
//! the board's buttons stay current; any change to the game (a move) ends
//! the request by itself. Rated games never allow takebacks: their result
//! moves points. The computer grants a takeback at once.

use shakmaty::{Color, Position};

use super::{
    buttons::{ButtonAction, GameButton},
    error::{refuse_msg, ServiceError},
    session::Session,
    Actor, Button, ButtonStyle, Reply, Service, TakebackAction,
};
use crate::{
    chess::{Game, Notation},
    i18n::{join_sentences, Lang},
    msg,
    store::{GameState, StoreError, TakeBack},
    t,
};

impl Service {
    pub(super) async fn takeback(
        &self,
        actor: &Actor,
        action: TakebackAction,
        at: Option<(i64, i64)>,
    ) -> Result<Reply, ServiceError> {
        let (_guard, mut session) = self.target_game(actor, at).await?;
        let side = session.side_of_actor(actor)?;
        Self::refuse_while_adjourned(&session, msg!("adjourn-no-takeback"))?;
        if session.record.game.rated {
            return refuse_msg(msg!("features-takeback-rated"));
        }
        self.refuse_in_tournament(session.record.id, msg!("tournament-no-takeback"))
            .await?;
        let opponent = session.player_id(!side).to_owned();
        // Said to the asker and in the channel: the computer's name (the
        // one name that has words) in the channel's language.
        let opponent_name = self
            .name_in(
                &actor.server,
                &opponent,
                self.server_lang(&actor.server).await,
            )
            .await?;
        let pending = session.record.takeback_by().map(str::to_owned);
        match action {
            TakebackAction::Request => {
                match pending.as_deref() {
                    Some(user) if user == actor.user => {
                        return refuse_msg(msg!(
                            "features-takeback-already-asked",
                            opponent = opponent_name
                        ))
                    }
                    Some(_) => {
                        return refuse_msg(msg!(
                            "features-takeback-pending",
                            opponent = opponent_name
                        ))
                    }
                    None => {}
                }
                let Some(keep) = plies_kept(&session.game, side) else {
                    return refuse_msg(msg!("features-takeback-nothing"));
                };
                let version = session.record.version;
                match self
                    .store()
                    .request_takeback(session.record.id, version, &actor.user)
                    .await
                {
                    Ok(()) => self.game_changed(session.record.id),
                    Err(StoreError::Conflict) => return moved_on(),
                    Err(e) => return Err(e.into()),
                }
                if crate::engine::Level::of_player(&opponent).is_some() {
                    // The computer grants a takeback at once, as on
                    // lichess: nobody else could answer the request.
                    let computer = Actor {
                        user: opponent.clone(),
                        name: opponent_name.clone(),
                        locale: None,
                        is_moderator: false,
                        ..actor.clone()
                    };
                    let reply = self.accept_takeback(&computer, &mut session, side).await?;
                    // Its own move taken back too: it is to move again.
                    self.computer_may_act(&session.record, session.game.turn());
                    return Ok(reply);
                }
                // Posted in the game's channel for both: the server's
                // language and notation.
                let (lang, notation) = self.session_words(&session).await?;
                // Buttons carry the position they were shown with (see
                // `target_game`), not the stored version.
                let shown_at = super::play::board_position(&session.game);
                let id = |action| {
                    ButtonAction::Game {
                        id: session.record.id,
                        action,
                        version: shown_at,
                    }
                    .id()
                };
                Ok(Reply {
                    text: t!(
                        lang,
                        "features-takeback-asks",
                        name = super::display_name(&actor.name),
                        moves = taken_back(lang, notation, &session.game, keep),
                        opponent = opponent_name
                    ),
                    buttons: vec![
                        Button {
                            id: id(GameButton::TakebackAccept),
                            label: t!(lang, "features-button-takeback-accept"),
                            style: ButtonStyle::Success,
                        },
                        Button {
                            id: id(GameButton::TakebackDecline),
                            label: t!(lang, "features-button-takeback-decline"),
                            style: ButtonStyle::Secondary,
                        },
                    ],
                    mentions: vec![opponent],
                    ..Reply::default()
                })
            }
            TakebackAction::Accept | TakebackAction::Decline => {
                match pending.as_deref() {
                    None => return refuse_msg(msg!("features-takeback-none")),
                    Some(user) if user == actor.user => {
                        return refuse_msg(msg!("features-takeback-own", opponent = opponent_name))
                    }
                    Some(_) => {}
                }
                if action == TakebackAction::Decline {
                    match self
                        .store()
                        .clear_takeback(session.record.id, session.record.version)
                        .await
                    {
                        Ok(()) => self.game_changed(session.record.id),
                        Err(StoreError::Conflict) => return moved_on(),
                        Err(e) => return Err(e.into()),
                    }
                    let lang = self.server_lang(&actor.server).await;
                    return Ok(Reply {
                        text: t!(
                            lang,
                            "features-takeback-declined",
                            name = super::display_name(&actor.name)
                        ),
                        mentions: vec![opponent],
                        ..Reply::default()
                    });
                }
                self.accept_takeback(actor, &mut session, !side).await
            }
        }
    }

    /// Takes back the last move of `asker` (and the reply after it).
    async fn accept_takeback(
        &self,
        actor: &Actor,
        session: &mut Session,
        asker: Color,
    ) -> Result<Reply, ServiceError> {
        let Some(keep) = plies_kept(&session.game, asker) else {
            return refuse_msg(msg!("features-takeback-none"));
        };
        let (lang, notation) = self.session_words(session).await?;
        let moves = taken_back(lang, notation, &session.game, keep);
        let mut game = Game::replay_in(
            session.record.game.variant,
            session.record.game.initial_fen.as_deref(),
            session.game.plies()[..keep]
                .iter()
                .map(|p| (p.uci.as_str(), p.at_ms)),
        )
        .map_err(|e| ServiceError::Internal(format!("takeback replay: {e}")))?;
        let settings = self.settings_of(session).await?.clone();
        game.set_strict_illegal_moves(settings.strict_illegal_moves);
        game.restore(None, session.game.illegal_king_moves(), None);
        // The asker's turn starts again now: a correspondence deadline gets
        // the time since the remaining last move back as extra time (a live
        // clock simply runs, as it does on lichess).
        let now = self.now_ms();
        let turn_start = game
            .last_ply()
            .map_or(session.record.game.created_ms, |p| p.at_ms);
        let correspondence = matches!(
            session.record.game.time_control.parse(),
            Ok(crate::clock::TimeControl::Correspondence(_))
        );
        let bonus_ms = if correspondence {
            (now - turn_start).max(0)
        } else {
            0
        };
        let deadline_ms = self.deadline_for(session, &game, bonus_ms).await?;
        let next_reminder_ms = self
            .next_reminder_for(session, &game, deadline_ms, now)
            .await?;
        let [illegal_white, illegal_black] = game.illegal_king_moves();
        let state = GameState {
            draw_offer: None,
            illegal_white: i64::from(illegal_white),
            illegal_black: i64::from(illegal_black),
            deadline_ms,
            bonus_ms,
            next_reminder_ms,
            ..GameState::default()
        };
        let change = TakeBack {
            game_id: session.record.id,
            expected_version: session.record.version,
            requested_by: session.player_id(asker).to_owned(),
            keep_plies: keep as i64,
            state: state.clone(),
        };
        let version = match self.store().take_back(&change).await {
            Ok(version) => version,
            Err(StoreError::Conflict) => return moved_on(),
            Err(e) => return Err(e.into()),
        };
        self.remember_game(session.record.id, version, &game);
        self.game_changed(session.record.id);
        session.record.version = version;
        session.record.state = state;
        session.record.offers.takeback = None;
        session.game = game.clone();
        let mut reply = self.board_reply(session, &game, None).await?;
        let accepted = t!(
            lang,
            "features-takeback-accepted",
            name = super::display_name(&actor.name),
            moves = moves
        );
        reply.text = join_sentences(lang, [accepted.as_str(), &reply.text]);
        Ok(reply)
    }
}

fn moved_on<T>() -> Result<T, ServiceError> {
    refuse_msg(msg!("features-takeback-moved-on"))
}

/// How many plies stay when `side` takes back their last move: everything
/// before it. `None` if `side` has not moved.
pub(super) fn plies_kept(game: &Game, side: Color) -> Option<usize> {
    let first = game.initial_position().turn();
    (0..game.plies().len())
        .rev()
        .find(|i| (if i % 2 == 0 { first } else { !first }) == side)
}

/// "the move Nf3" or "the move e5 and the reply Nf3": the moves after
/// `keep`, in `lang`, written in `notation` (马f3 on a Chinese server).
fn taken_back(lang: Lang, notation: Notation, game: &Game, keep: usize) -> String {
    let sans: Vec<String> = game.plies()[keep..]
        .iter()
        .map(|p| notation.write(&p.san).into_owned())
        .collect();
    match sans.as_slice() {
        [one] => t!(lang, "features-takeback-one", san = one.as_str()),
        [mine, reply] => t!(
            lang,
            "features-takeback-two",
            mine = mine.as_str(),
            reply = reply.as_str()
        ),
        _ => sans.join(", "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game_with(moves: &[&str]) -> Game {
        let mut game = Game::new();
        for m in moves {
            game.play_text(m, 0).expect("legal");
        }
        game
    }

    #[test]
    fn the_asker_goes_back_to_before_their_last_move() {
        let game = game_with(&["e4", "e5", "Nf3"]);
        // White moved last: only Nf3 goes.
        assert_eq!(plies_kept(&game, Color::White), Some(2));
        // Black asks while White has replied: e5 and Nf3 go.
        assert_eq!(plies_kept(&game, Color::Black), Some(1));
        assert_eq!(
            taken_back(Lang::En, Notation::Letters, &game, 1),
            "the move e5 and the reply Nf3"
        );
        assert_eq!(
            taken_back(Lang::ZhCn, Notation::Chinese, &game, 2),
            "马f3这步棋"
        );
        assert_eq!(plies_kept(&game_with(&["e4"]), Color::Black), None);
        assert_eq!(plies_kept(&Game::new(), Color::White), None);
    }

    #[test]
    fn a_game_from_a_position_with_black_to_move() {
        let mut game = Game::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1").expect("fen");
        game.play_text("Kd7", 0).expect("legal");
        game.play_text("e4", 0).expect("legal");
        assert_eq!(plies_kept(&game, Color::Black), Some(0));
        assert_eq!(plies_kept(&game, Color::White), Some(1));
    }
}
