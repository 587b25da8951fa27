// Draw the notebook figures of a tutorial page (sitegen's generator/notebooks/charts.py) from
// their data, with the libraries this site serves itself: each `.nb-chart` holds its figure as
// inert JSON. Nothing is loaded from another host: Vega's loader refuses every URL.
// A figure the library refuses becomes a note saying why, never an empty box.
document.addEventListener("DOMContentLoaded", function () {
  var draw = {
    plotly: function (target, figure) {
      return window.Plotly.newPlot(target, {
        data: figure.data || [], layout: figure.layout || {}, frames: figure.frames,
        config: { responsive: true, displaylogo: false },
      });
    },
    vega: function (target, chart) {
      var loader = window.vega.loader();
      loader.sanitize = function (uri) { return Promise.reject(new Error("not loaded: " + uri)); };
      return window.vegaEmbed(target, chart.spec, { mode: chart.mode, actions: false, loader: loader });
    },
    bokeh: function (target, plot) {
      return window.Bokeh.embed.embed_item({ doc: plot.doc, root_id: plot.root_id, target_id: null }, target);
    },
  };
  document.querySelectorAll(".nb-chart").forEach(function (chart) {
    var target = document.createElement("div");
    target.className = "nb-chart-area";
    chart.appendChild(target);
    function failed(e) {
      var note = document.createElement("p");
      note.className = "nb-note";
      note.textContent = "This chart could not be drawn: " + String((e && e.message) || e) + ".";
      target.replaceWith(note);
    }
    try {
      var data = JSON.parse(chart.querySelector('script[type="application/json"]').textContent);
      Promise.resolve(draw[chart.dataset.chart](target, data)).catch(failed);
    } catch (e) {
      failed(e);
    }
  });
});
