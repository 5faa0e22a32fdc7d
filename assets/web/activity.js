// The board as a Discord Activity. Discord opens /activity in its iframe; this
// signs the player in through Discord's Embedded App SDK (authorize → the
// bot exchanges the code → authenticate) and goes on to the channel's game
// on the ordinary board page, its session in the address (cookies may be
// refused inside the iframe).
//
// Outside Discord (a developer's browser, the tests) there is no parent
// client to talk to: the SDK's own DiscordSDKMock stands in, with the
// channel from ?channel_id= and the code from ?mock_code=.
//
// SPDX-License-Identifier: GPL-3.0-or-later

import { DiscordSDK, DiscordSDKMock } from './discord-sdk.min.js';

const body = document.body;
const status = document.getElementById('activity-status');
const words = (() => {
  try {
    return JSON.parse(document.getElementById('activity-words').textContent) || {};
  } catch {
    return {};
  }
})();
const say = text => {
  status.textContent = text;
};

const clientId = body.dataset.clientId;
const params = new URLSearchParams(location.search);
// Discord always passes frame_id to an Activity it launches.
const inDiscord = params.has('frame_id');

function sdkHere() {
  if (inDiscord) return new DiscordSDK(clientId);
  const mock = new DiscordSDKMock(clientId, params.get('guild_id'), params.get('channel_id'), null);
  const code = params.get('mock_code') || 'mock_code';
  mock._updateCommandMocks({ authorize: async () => ({ code }) });
  return mock;
}

async function signIn() {
  const sdk = sdkHere();
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: 'code',
    state: '',
    prompt: 'none',
    scope: ['identify'],
  });
  const response = await fetch('/activity/token', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ code, channel_id: sdk.channelId }),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok || !answer.board) {
    say(answer.error || words.failed || 'Sign-in failed.');
    body.dataset.failed = '1';
    return;
  }
  await sdk.commands.authenticate({ access_token: answer.access_token });
  location.replace(answer.board);
}

signIn().catch(() => {
  say(words.failed || 'Sign-in failed.');
  body.dataset.failed = '1';
});
