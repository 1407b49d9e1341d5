/*
 * Added to a page of hvtop report by test-hvtop-report-layout.sh, after
 * the page's own scripts: where the charts are in the window, and what
 * each legend says before and while the mouse is on a line (the page's
 * graphs, window.hvtopGraphs, are told to select one, as the mouse does),
 * written into the body's data-layout for report-layout.py.
 */
(function () {
	var out = { vw: document.documentElement.clientWidth, grids: [],
	    legends: [] };
	var graphs = window.hvtopGraphs || [];

	document.querySelectorAll('.charts').forEach(function (grid) {
		var cs = [];
		grid.querySelectorAll('.chart').forEach(function (c) {
			var b = c.getBoundingClientRect();
			var cv = c.querySelector('canvas');
			cs.push({ x: b.left, r: b.right, w: b.width,
			    cw: cv ? cv.getBoundingClientRect().width : 0 });
		});
		out.grids.push({ charts: cs });
	});
	function legend(i) {
		var l = document.getElementById('legend-' + i);
		var items = l.querySelectorAll('.li');
		var hl = l.querySelector('.hl');
		return { text: l.textContent,
		    h: l.getBoundingClientRect().height,
		    lh: parseFloat(getComputedStyle(l).fontSize) * 1.3,
		    first: items.length ? items[0].textContent : '',
		    hl: hl ? hl.textContent : '' };
	}
	/* Every chart's legend as the page left it; then, where the page
	 * hands out its graph, with a line pointed at. */
	JSON.parse(document.getElementById('hvtop-data').textContent).charts.
	    forEach(function (c, i) {
		var g = graphs[i], labels = c.lines;
		var want = labels[labels.length - 1];
		var col = labels.length, row, e;

		e = { i: i, lines: labels.length, labels: labels, want: want,
		    idle: legend(i), hover: null };
		if (g !== undefined) {
			/* A row where the line has a value, from the middle. */
			for (row = Math.floor(g.numRows() / 2);
			    row < g.numRows(); row++)
				if (g.getValue(row, col) !== null)
					break;
			g.setSelection(row, want);
			e.hover = legend(i);
			g.clearSelection();
		}
		out.legends.push(e);
	});
	out.graphs = graphs.length;
	document.body.setAttribute('data-layout', JSON.stringify(out));
})();
