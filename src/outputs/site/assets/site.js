/* kubelet atlas: data loading, search and keyboard navigation shared by every page. */
(function () {
  'use strict';
  var KA = (window.KA = window.KA || {});
  var store = {};
  var waiting = {};

  /* Data files are scripts that call KA.put(key, value): they load from file:// too, unlike fetch(). */
  KA.put = function (key, value) {
    store[key] = value;
    var list = waiting[key];
    delete waiting[key];
    (list || []).forEach(function (w) { w.resolve(value); });
  };

  KA.script = function (src) {
    return new Promise(function (resolve, reject) {
      var s = document.createElement('script');
      s.src = src;
      s.async = true;
      s.addEventListener('load', function () { resolve(); });
      s.addEventListener('error', function () { reject(new Error('cannot load ' + src)); });
      document.head.appendChild(s);
    });
  };

  KA.load = function (key, src) {
    if (Object.prototype.hasOwnProperty.call(store, key)) return Promise.resolve(store[key]);
    return new Promise(function (resolve, reject) {
      var first = !waiting[key];
      (waiting[key] = waiting[key] || []).push({ resolve: resolve, reject: reject });
      if (!first) return;
      KA.script(src).catch(function (err) {
        var list = waiting[key] || [];
        delete waiting[key];
        list.forEach(function (w) { w.reject(err); });
      });
    });
  };

  KA.esc = function (s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  };

  /* ---- search ---- */
  var indexes = {};
  var miniSearch;

  function engine() {
    if (!miniSearch) miniSearch = KA.script('vendor/minisearch.js');
    return miniSearch;
  }

  function symbolIndex(shard) {
    if (!indexes[shard]) {
      indexes[shard] = engine().then(function () {
        return KA.load('search/s-' + shard, 'data/search/s-' + shard + '.js');
      }).then(function (rows) {
        var ms = new window.MiniSearch({ fields: ['name', 'local', 'pkg'], storeFields: ['local', 'pkg', 'kind', 'href'] });
        ms.addAll(rows.map(function (r, i) { return { id: i, name: r[0], local: r[1], pkg: r[2], kind: r[3], href: r[4] }; }));
        return ms;
      }, function () { return null; });
    }
    return indexes[shard];
  }

  function proseIndex() {
    if (!indexes.prose) {
      indexes.prose = engine().then(function () {
        return KA.load('search/prose', 'data/search/prose.js');
      }).then(function (rows) {
        var ms = new window.MiniSearch({ fields: ['title', 'text'], storeFields: ['title', 'href'] });
        ms.addAll(rows.map(function (r, i) { return { id: i, title: r[0], text: r[1], href: r[2] }; }));
        return ms;
      });
    }
    return indexes.prose;
  }

  function shardOf(query) {
    var words = query.split(/[^A-Za-z0-9_]+/).filter(Boolean);
    var last = words.length ? words[words.length - 1] : '';
    var c = last.charAt(0).toLowerCase();
    return c >= 'a' && c <= 'z' ? c : '_';
  }

  function setupSearch() {
    var input = document.getElementById('q');
    var list = document.getElementById('results');
    if (!input || !list) return;
    var timer = 0;
    var active = -1;
    var seq = 0;

    function close() {
      list.hidden = true;
      input.setAttribute('aria-expanded', 'false');
      active = -1;
    }

    function run() {
      var q = input.value.trim();
      var mine = ++seq;
      if (q.length < 2) return close();
      var opts = { prefix: true, fuzzy: function (t) { return t.length > 4 ? 0.2 : 0; }, combineWith: 'AND', boost: { name: 3, local: 2, title: 2 } };
      Promise.all([symbolIndex(shardOf(q)), proseIndex()]).then(function (ix) {
        if (mine !== seq) return;
        var syms = ix[0] ? ix[0].search(q, opts).slice(0, 12) : [];
        var prose = ix[1].search(q, opts).slice(0, 5);
        var html = syms.map(function (r) {
          return '<li role="option"><a class="hit" href="' + KA.esc(r.href) + '"><b>' + KA.esc(r.local) + '</b> <span class="muted">' + KA.esc(r.kind + ' · ' + r.pkg) + '</span></a></li>';
        }).concat(prose.map(function (r) {
          return '<li role="option"><a class="hit prose" href="' + KA.esc(r.href) + '">' + KA.esc(r.title) + ' <span class="muted">topic</span></a></li>';
        }));
        list.innerHTML = html.length ? html.join('') : '<li class="muted">No match</li>';
        list.hidden = false;
        input.setAttribute('aria-expanded', 'true');
        active = -1;
      });
    }

    function move(d) {
      var links = list.querySelectorAll('a.hit');
      if (!links.length) return;
      active = (active + d + links.length) % links.length;
      links[active].focus();
    }

    input.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(run, 80);
    });
    input.addEventListener('keydown', function (e) {
      if (e.key === 'ArrowDown') { e.preventDefault(); move(1); }
      else if (e.key === 'Escape') { input.value = ''; close(); }
      else if (e.key === 'Enter') {
        var first = list.querySelector('a.hit');
        if (first) { e.preventDefault(); first.click(); }
      }
    });
    list.addEventListener('keydown', function (e) {
      if (e.key === 'ArrowDown') { e.preventDefault(); move(1); }
      else if (e.key === 'ArrowUp') { e.preventDefault(); if (active <= 0) { input.focus(); active = -1; } else move(-1); }
      else if (e.key === 'Escape') { close(); input.focus(); }
    });
    list.addEventListener('click', function (e) {
      if (e.target.closest && e.target.closest('a')) close();
    });
    document.addEventListener('click', function (e) {
      if (!e.target.closest || !e.target.closest('.search')) close();
    });
  }

  /* ---- keyboard ---- */
  function typing(e) {
    var t = e.target;
    return t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.isContentEditable);
  }

  function tourStep(delta) {
    var steps = document.querySelectorAll('.tour .step');
    if (!steps.length) return;
    var m = /^#step-(\d+)$/.exec(location.hash);
    var cur = m ? parseInt(m[1], 10) : 0;
    var next = Math.max(1, Math.min(steps.length, cur + delta));
    location.hash = 'step-' + next;
  }

  function focusStep() {
    var m = /^#step-(\d+)$/.exec(location.hash);
    var el = m && document.getElementById('step-' + m[1]);
    if (el) el.focus();
  }

  document.addEventListener('keydown', function (e) {
    if (typing(e) || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === '/') {
      var q = document.getElementById('q');
      if (q) { e.preventDefault(); q.focus(); }
    } else if (e.key === 'n' || e.key === 'ArrowRight') {
      if (document.querySelector('.tour')) { e.preventDefault(); tourStep(1); }
    } else if (e.key === 'p' || e.key === 'ArrowLeft') {
      if (document.querySelector('.tour')) { e.preventDefault(); tourStep(-1); }
    }
  });

  document.addEventListener('DOMContentLoaded', function () {
    setupSearch();
    var skip = document.querySelector('.skip');
    if (skip) skip.addEventListener('click', function (e) {
      e.preventDefault();
      document.getElementById('content').focus();
    });
    if (document.querySelector('.tour')) {
      window.addEventListener('hashchange', focusStep);
      focusStep();
    }
  });
})();
