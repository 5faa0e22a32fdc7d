// The club pages (tournament, ladder, profile, game viewer). Every page works
// without this script; where it runs, it keeps live pages up to date and lets
// the game viewer step through a game in place. No inline script, no markup
// from strings the server did not send as a whole page.
//
// SPDX-License-Identifier: GPL-3.0-or-later

const body = document.body;

// ------------------------------------------------------------ live pages

// The server says "this club changed" over server-sent events; the page
// reads itself again and swaps its main part, keeping open sections open.
if (body.dataset.live && 'EventSource' in window) {
  let busy = false;
  let again = false;
  const refresh = async () => {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      const response = await fetch(location.href, { credentials: 'same-origin' });
      if (response.ok) {
        const fresh = new DOMParser().parseFromString(await response.text(), 'text/html');
        const main = document.getElementById('page');
        const next = fresh.getElementById('page');
        if (main && next) {
          const open = new Set(
            [...main.querySelectorAll('details[id]')].filter(d => d.open).map(d => d.id),
          );
          const closed = new Set(
            [...main.querySelectorAll('details[id]')].filter(d => !d.open).map(d => d.id),
          );
          for (const d of next.querySelectorAll('details[id]')) {
            if (open.has(d.id)) d.open = true;
            if (closed.has(d.id)) d.open = false;
          }
          main.replaceChildren(...next.childNodes);
          body.dataset.updated = String(Date.now());
        }
      }
    } catch {
      // The next change tries again.
    } finally {
      busy = false;
      if (again) {
        again = false;
        refresh();
      }
    }
  };
  const events = new EventSource(body.dataset.live);
  events.addEventListener('change', refresh);
}

// ------------------------------------------------------------ game viewer

const dataEl = document.getElementById('page-data');
const boardHost = document.getElementById('viewer-board');
if (dataEl && boardHost) {
  let data;
  try {
    data = JSON.parse(dataEl.textContent);
  } catch {
    data = null;
  }
  if (data && Array.isArray(data.plies)) {
    startViewer(data);
  }
}

async function startViewer(data) {
  const { Chessground } = await import('./chessground.min.js');
  const last = data.plies.length;
  let ply = Math.max(0, Math.min(last, data.ply | 0));
  const fenAt = n => (n === 0 ? data.start : data.plies[n - 1].fen);
  const moveAt = n => (n === 0 ? undefined : [data.plies[n - 1].from, data.plies[n - 1].to]);
  const turnAt = n => (fenAt(n).split(' ')[1] === 'b' ? 'black' : 'white');

  const el = document.createElement('div');
  el.className = 'viewer-ground';
  boardHost.replaceChildren(el);
  const ground = Chessground(el, {
    viewOnly: true,
    coordinates: true,
    fen: fenAt(ply),
    lastMove: moveAt(ply),
    animation: { enabled: true, duration: 150 },
    highlight: { lastMove: true, check: true },
  });

  const links = [...document.querySelectorAll('.viewer-moves a[data-ply]')];
  const hits = [...document.querySelectorAll('svg.advantage a[data-ply] rect')];
  const show = n => {
    ply = Math.max(0, Math.min(last, n));
    const fen = fenAt(ply);
    const inCheck = /[+#]$/.test(
      (document.querySelector(`.viewer-moves a[data-ply="${ply}"]`) || {}).textContent || '',
    );
    ground.set({ fen, lastMove: moveAt(ply), turnColor: turnAt(ply), check: inCheck ? turnAt(ply) : false });
    for (const a of links) {
      if (Number(a.dataset.ply) === ply) a.setAttribute('aria-current', 'step');
      else a.removeAttribute('aria-current');
    }
    for (const r of hits) {
      r.classList.toggle('current', Number(r.parentNode.dataset.ply) === ply);
    }
    const current = links.find(a => Number(a.dataset.ply) === ply);
    if (current) current.scrollIntoView({ block: 'nearest' });
    const url = new URL(location.href);
    url.searchParams.set('ply', String(ply));
    history.replaceState(null, '', url);
    body.dataset.ply = String(ply);
  };

  document.addEventListener('click', event => {
    const target = event.target.closest('[data-ply], [data-step]');
    if (!target) return;
    event.preventDefault();
    if (target.dataset.step) {
      const to = { first: 0, prev: ply - 1, next: ply + 1, last }[target.dataset.step];
      show(to);
    } else {
      show(Number(target.dataset.ply));
    }
  });
  document.addEventListener('keydown', event => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: last, ArrowUp: 0, ArrowDown: last }[
      event.key
    ];
    if (to === undefined) return;
    event.preventDefault();
    show(to);
  });
  show(ply);
}
