/* kubelet atlas: the symbol view of a package page, drawn from the package's data file. */
(function () {
  'use strict';
  var KA = window.KA;
  var esc = KA.esc;
  var body = document.body;
  var view = document.getElementById('sym');
  var intro = view ? view.innerHTML : '';

  var KIND = { s: 'static', i: 'interface', m: 'method-value', f: 'func-value', c: 'closure' };
  var MODE = { c: 'call', g: 'go', d: 'defer', r: 'ref' };
  var symfiles = JSON.parse((document.getElementById('symfiles') || { textContent: '{}' }).textContent);

  /* A Go file's data: its highlighted lines and the records of its symbols. */
  function fileData(key) {
    return KA.load('f/' + key, 'data/f/' + key + '.js');
  }

  function nameOf(href) {
    var i = href.indexOf('#');
    return i < 0 ? '' : decodeURIComponent(href.slice(i + 1));
  }

  function shortName(id) {
    var i = id.lastIndexOf('/');
    return i >= 0 ? id.slice(i + 1) : id;
  }

  /* An edge row with its ref resolved: [id, href, data key, file, line, kind, mode, confidence]. */
  function edge(d, row, ownFile) {
    var r = d.refs[row[0]];
    var f = d.files[r[2]] || ['', ''];
    var code = row[2];
    return { id: r[0], href: r[1], key: f[1], file: ownFile || f[0], line: row[1], kind: KIND[code[0]], mode: MODE[code[1]], conf: code.length > 2 ? parseInt(code.slice(2), 10) : 100 };
  }

  function link(e) {
    return e.href ? '<a href="' + esc(e.href) + '">' + esc(shortName(e.id)) + '</a>' : '<span>' + esc(shortName(e.id)) + '</span>';
  }

  function tags(e) {
    var out = [];
    if (e.mode !== 'call') out.push('<span class="tag ' + esc(e.mode) + '">' + esc(e.mode) + '</span>');
    if (e.kind === 'interface') out.push('<span class="tag iface" title="interface candidate">interface ' + e.conf + '%</span>');
    else if (e.kind !== 'static') out.push('<span class="tag">' + esc(e.kind) + '</span>');
    return out.join(' ');
  }

  function edgeList(list, total, cls) {
    if (!list.length) return '<p class="muted">None found.</p>';
    var items = list.map(function (e) {
      return '<li>' + link(e) + ' ' + tags(e) + ' <span class="at">' + esc(e.file) + ':' + e.line + '</span></li>';
    });
    var more = total > list.length ? '<p class="muted">' + (total - list.length) + ' more not listed.</p>' : '';
    return '<ul class="edges ' + cls + '">' + items.join('') + '</ul>' + more;
  }

  function section(title, html) {
    return '<section><h2>' + title + '</h2>' + html + '</section>';
  }

  function callersOf(d, s) { return s.callers.map(function (r) { return edge(d, r); }); }
  function calleesOf(d, s) { return s.callees.map(function (r) { return edge(d, r, d.file); }); }

  function render(d, name, s) {
    var parts = [];
    var callers = callersOf(d, s);
    var callees = calleesOf(d, s);
    var gh = d.gh + d.file + '#L' + s.line + (s.endLine > s.line ? '-L' + s.endLine : '');
    parts.push('<h1><span class="kind">' + esc(s.kind) + '</span> ' + esc(name) + '</h1>');
    parts.push('<p class="meta">' + esc(s.id) + '<br><a href="' + esc(gh) + '">' + esc(d.file) + ':' + s.line + '–' + s.endLine + ' on GitHub</a></p>');
    if (s.parent !== undefined) parts.push('<p>Closure inside ' + link(edge(d, [s.parent, 0, 'sc'])) + '</p>');
    if (s.sig) parts.push('<pre class="sig">' + esc(s.sig) + '</pre>');
    if (s.doc) {
      /* Long doc comments fold after their first paragraph, so the code and graph stay in view. */
      var cut = s.doc.indexOf('\n\n');
      if (s.doc.length > 360 && cut > 0) parts.push('<details class="doc"><summary>' + esc(s.doc.slice(0, cut)) + '</summary>' + esc(s.doc.slice(cut + 2)) + '</details>');
      else parts.push('<div class="doc">' + esc(s.doc) + '</div>');
    }
    parts.push('<div class="symgrid"><div class="srcpane"><h2>Source</h2><div id="src"></div></div>' +
      '<div class="graphpane"><h2>Neighbourhood</h2><p class="muted small">Callers left, callees right. Click a node to expand it; shift-click two nodes for a path between them.</p>' +
      '<div id="graph" role="img" aria-label="Call graph around ' + esc(name) + '"></div><p id="graph-info" class="small" aria-live="polite"></p></div></div>');
    parts.push('<div class="cols2">' + section('Callers (' + s.nCallers + ')', edgeList(callers, s.nCallers, 'callers')) +
      section('Callees (' + s.nCallees + ')', edgeList(callees, s.nCallees, 'callees')) + '</div>');
    if (s.goroutines) {
      parts.push(section('Goroutines started', '<ul>' + s.goroutines.map(function (g) {
        return '<li>' + link(edge(d, [g[0], g[3], 'sg'])) + ' <span class="tag go">' + esc(g[1]) + '</span>' + (g[2] ? ' every ' + esc(g[2]) : '') + ' <span class="at">line ' + g[3] + '</span></li>';
      }).join('') + '</ul>'));
    }
    if (s.channels) {
      parts.push(section('Channels used', '<ul>' + s.channels.map(function (c) {
        return '<li><span class="tag">' + esc(c[0]) + '</span> <code>' + esc(c[2]) + '</code> <span class="muted">' + esc(c[1]) + '</span> <span class="at">line ' + c[3] + '</span></li>';
      }).join('') + '</ul>'));
    }
    if (s.methods) {
      parts.push(section('Methods', '<ul class="cols">' + s.methods.map(function (m) {
        var e = edge(d, [m[1], 0, 'sc']);
        return '<li>' + (e.href ? '<a href="' + esc(e.href) + '">' + esc(m[0]) + '</a>' : esc(m[0])) + '</li>';
      }).join('') + '</ul>'));
    }
    if (s.annotations) {
      /* Annotation HTML was sanitized at build time. */
      parts.push(section('In the topics', s.annotations.map(function (a) {
        return '<div class="ann"><p><a href="' + esc(a.href) + '">' + esc(a.topic) + '</a> <span class="muted">' + esc(a.where) + '</span></p>' + (a.html || '') + '</div>';
      }).join('')));
    }
    if (s.notes) {
      parts.push(section('Notes', s.notes.map(function (n) {
        return '<div class="note"><p class="muted">' + esc(n.kind + ' · ' + n.author + ' · ' + n.date.slice(0, 10) + ' · ' + n.status) + '</p>' + n.html + '</div>';
      }).join('')));
    }
    if (s.ports) {
      parts.push(section('Reference port', s.ports.map(function (p) {
        return '<p>' + esc(p.name) + ' <span class="at">' + esc(p.file) + ':' + p.line + '</span></p><pre class="code ts">' + esc(p.code) + '</pre>';
      }).join('')));
    }
    view.innerHTML = parts.join('\n');
    document.title = name + ' · kubelet atlas';
    var src = document.getElementById('src');
    if (!d.lines.length) src.textContent = 'Source not available.';
    else src.innerHTML = '<pre class="code go"><code>' + d.lines.slice(s.line - 1, s.endLine).map(function (l, i) {
      return '<span class="ln" data-n="' + (s.line + i) + '"></span>' + l;
    }).join('\n') + '</code></pre>';
    drawGraph(d, s, callers, callees, location.hash ? 'pkg/' + body.dataset.pkg + '.html' + location.hash : '');
  }

  /* ---- graph ---- */
  var cy = null;
  var picked = [];

  function edgeClass(e) {
    var c = [];
    if (e.mode === 'go' || e.mode === 'defer' || e.mode === 'ref') c.push(e.mode);
    if (e.kind === 'interface') c.push('iface');
    return c.join(' ');
  }

  function addNeighbours(id, callers, callees, limitIn, limitOut) {
    var els = [];
    var seen = {};
    function node(e) {
      if (cy.getElementById(e.id).length || seen[e.id]) return;
      seen[e.id] = true;
      els.push({ group: 'nodes', data: { id: e.id, label: shortName(e.id), href: e.href, key: e.key } });
    }
    function arc(from, to, e) {
      var eid = from + '>' + to;
      if (cy.getElementById(eid).length || seen[eid]) return;
      seen[eid] = true;
      els.push({ group: 'edges', data: { id: eid, source: from, target: to }, classes: edgeClass(e) });
    }
    callers.slice(0, limitIn).forEach(function (e) { node(e); arc(e.id, id, e); });
    callees.slice(0, limitOut).forEach(function (e) { if (e.id !== id) { node(e); arc(id, e.id, e); } });
    cy.add(els);
    cy.getElementById(id).data('expanded', true);
  }

  function relayout() {
    cy.layout({ name: 'dagre', rankDir: 'LR', nodeSep: 8, rankSep: 70, animate: false, fit: false }).run();
    cy.fit(cy.elements(), 20);
  }

  function drawGraph(d, s, callers, callees, self) {
    var box = document.getElementById('graph');
    if (!window.cytoscape) { box.textContent = 'The graph needs JavaScript and the bundled Cytoscape.'; return; }
    if (window.cytoscapeDagre && !drawGraph.registered) {
      try { window.cytoscape.use(window.cytoscapeDagre); } catch (e) { /* already registered */ }
      drawGraph.registered = true;
    }
    picked = [];
    cy = window.cytoscape({
      container: box,
      maxZoom: 1.6,
      style: [
        { selector: 'node', style: { label: 'data(label)', 'font-size': 10, 'text-valign': 'center', 'text-halign': 'center', shape: 'round-rectangle', width: 'label', height: 22, padding: '6px', 'background-color': '#e8eef7', 'border-width': 1, 'border-color': '#5a6b85', color: '#111' } },
        { selector: 'node.center', style: { 'background-color': '#ffd966', 'border-width': 2 } },
        { selector: 'node.picked', style: { 'border-color': '#b00', 'border-width': 3 } },
        { selector: 'edge', style: { width: 1.5, 'curve-style': 'bezier', 'target-arrow-shape': 'triangle', 'line-color': '#667', 'target-arrow-color': '#667' } },
        { selector: 'edge.go', style: { 'line-color': '#0a7d32', 'target-arrow-color': '#0a7d32', width: 2.5 } },
        { selector: 'edge.iface', style: { 'line-style': 'dashed' } },
        { selector: 'edge.defer', style: { 'line-style': 'dotted', 'line-color': '#8a5a00', 'target-arrow-color': '#8a5a00' } },
        { selector: 'edge.ref', style: { 'line-color': '#aab', 'target-arrow-shape': 'none' } },
        { selector: '.faded', style: { opacity: 0.2 } },
        { selector: '.path', style: { 'line-color': '#b00', 'target-arrow-color': '#b00', 'border-color': '#b00', width: 3 } },
      ],
    });
    KA.graph = cy;
    cy.add({ group: 'nodes', data: { id: s.id, label: shortName(s.id), href: self, key: symfiles[nameOf(self)] } });
    addNeighbours(s.id, callers, callees, 12, 20);
    cy.getElementById(s.id).addClass('center');
    relayout();
    body.setAttribute('data-graph', 'ready');
    var center = cy.getElementById(s.id);
    info('Drawn: ' + center.incomers('node').length + ' callers, ' + center.outgoers('node').length + ' callees' +
      (s.nCallers > 12 || s.nCallees > 20 ? ' (the first of ' + s.nCallers + ' and ' + s.nCallees + ')' : '') + '.');
    cy.on('tap', 'node', function (evt) {
      var n = evt.target;
      if (evt.originalEvent && evt.originalEvent.shiftKey) return pick(n);
      var href = n.data('href');
      var open = href ? ' <a href="' + esc(href) + '">Open ' + esc(n.data('label')) + '</a>' : '';
      if (n.data('expanded') || !href || !n.data('key')) { info('Selected ' + esc(n.data('label')) + '.' + open, true); return; }
      fileData(n.data('key')).then(function (t) {
        var ts = t.symbols[nameOf(href)];
        if (!ts) { info(esc(n.data('label')) + ' is outside the site.', true); return; }
        addNeighbours(ts.id, callersOf(t, ts), calleesOf(t, ts), 6, 10);
        relayout();
        info('Expanded ' + esc(n.data('label')) + '.' + open, true);
      });
    });
  }

  function pick(n) {
    cy.elements().removeClass('path faded');
    picked.push(n);
    n.addClass('picked');
    if (picked.length < 2) { info('Shift-click a second node for a path.'); return; }
    var a = picked[0], b = picked[1];
    picked.forEach(function (p) { p.removeClass('picked'); });
    picked = [];
    var r = cy.elements().aStar({ root: a, goal: b, directed: true });
    if (!r.found) r = cy.elements().aStar({ root: b, goal: a, directed: true });
    if (!r.found) { info('No path between them in the drawn graph: expand more nodes.'); return; }
    cy.elements().addClass('faded');
    r.path.removeClass('faded').addClass('path');
    info('Path of ' + (r.path.edges().length) + ' calls.');
  }

  function info(text, html) {
    var el = document.getElementById('graph-info');
    if (!el) return;
    if (html) el.innerHTML = text; else el.textContent = text;
  }

  function route() {
    var name = decodeURIComponent(location.hash.slice(1));
    var key = symfiles[name];
    if (!name || !key) {
      view.innerHTML = intro + (name && name !== 'content' ? '<p>No symbol named <code>' + esc(name) + '</code> here.</p>' : '');
      return;
    }
    fileData(key).then(function (d) {
      render(d, name, d.symbols[name]);
      view.scrollIntoView();
    }, function () { view.innerHTML = intro + '<p>Could not load the data for <code>' + esc(name) + '</code>.</p>'; });
  }

  if (view) {
    window.addEventListener('hashchange', route);
    route();
  }
})();
