package eval

import (
	"image/color"
	"math"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/ndb-project/ndb/grammar"
)

const (
	plotWidth  = 18 * vg.Centimeter
	plotHeight = 10 * vg.Centimeter
	plotDPI    = 144
)

// palette colors the series of a plot, in order.
var palette = []color.Color{
	color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff},
	color.RGBA{R: 0xa0, G: 0xa0, B: 0xa0, A: 0xff},
	color.RGBA{R: 0xe0, G: 0x70, B: 0x0a, A: 0xff},
	color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff},
	color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff},
	color.RGBA{R: 0x94, G: 0x67, B: 0xbd, A: 0xff},
}

// series is one set of bars or one line: a value (percent, NaN for n/a) per category
// or x.
type series struct {
	label  string
	values []float64
}

// barChart draws grouped bars: one group per category, one bar per series.
func barChart(title, ylabel string, categories []string, ss []series) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = ylabel
	p.Y.Min, p.Y.Max = 0, 100
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	n := max(len(ss), 1)
	w := vg.Length(float64(plotWidth) * 0.7 / float64(max(len(categories), 1)) / float64(n))
	for j, s := range ss {
		vals := make(plotter.Values, len(categories))
		for i := range vals {
			if i < len(s.values) && !math.IsNaN(s.values[i]) {
				vals[i] = s.values[i]
			}
		}
		b, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return nil, err
		}
		b.Color = palette[j%len(palette)]
		b.LineStyle.Width = 0
		b.Offset = vg.Length(float64(j)-float64(n-1)/2) * w
		p.Add(b)
		p.Legend.Add(s.label, b)
	}
	p.NominalX(categories...)
	p.Y.Max = 115 // room for the legend
	return p, nil
}

// lineChart draws one line with points per series over xs.
func lineChart(title, xlabel, ylabel string, xs []float64, ss []series) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.X.Min, p.X.Max = 0, 1
	p.Y.Min, p.Y.Max = 0, 115
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	for j, s := range ss {
		var pts plotter.XYs
		for i, v := range s.values {
			if i < len(xs) && !math.IsNaN(v) {
				pts = append(pts, plotter.XY{X: xs[i], Y: v})
			}
		}
		if len(pts) == 0 {
			continue
		}
		l, sc, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, err
		}
		c := palette[j%len(palette)]
		l.Color, sc.Color = c, c
		if j == len(ss)-1 && s.label != "" && s.label[0] == 'b' { // the baseline: dashed
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		}
		p.Add(l, sc)
		p.Legend.Add(s.label, l, sc)
	}
	return p, nil
}

// savePNG renders p into dir/name and returns the path.
func savePNG(p *plot.Plot, dir, name string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	c := vgimg.NewWith(vgimg.UseWH(plotWidth, plotHeight), vgimg.UseDPI(plotDPI))
	p.Draw(draw.New(c))
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(f); err != nil {
		f.Close()
		return "", err
	}
	return path, f.Close()
}

// Plot draws the next-state figures into dir and returns their paths: per level,
// nextstate_LEVEL.png (exact match per action, every predictor: the paper's Figure 6)
// and components_LEVEL.png (the first predictor's exact match per component and
// action: Figure 7; n/a components are left out).
func (r *NextStateResult) Plot(dir string) ([]string, error) {
	var paths []string
	for _, level := range r.levels() {
		var cats []string
		var kinds []grammar.ActionKind
		for _, kind := range grammar.AllActions {
			for _, name := range r.Predictors {
				if r.Tallies[GroupKey{level, kind, name}] != nil {
					cats, kinds = append(cats, kind.String()), append(kinds, kind)
					break
				}
			}
		}
		rate := func(name string, k grammar.ActionKind, c Component) float64 {
			t := r.Tallies[GroupKey{level, k, name}]
			if t == nil {
				return math.NaN()
			}
			v, ok := t.Rate(c)
			if !ok {
				return math.NaN()
			}
			return 100 * v
		}
		var ss []series
		for _, name := range r.Predictors {
			s := series{label: shortName(name)}
			for _, k := range kinds {
				s.values = append(s.values, rate(name, k, Exact))
			}
			ss = append(ss, s)
		}
		p, err := barChart("Next-state exact match, "+level+" level (greedy)", "exact match %", cats, ss)
		if err != nil {
			return paths, err
		}
		path, err := savePNG(p, dir, "nextstate_"+level+".png")
		if err != nil {
			return paths, err
		}
		paths = append(paths, path)
		if len(r.Predictors) == 0 {
			continue
		}
		ss = nil
		for _, c := range Components[1:] {
			s := series{label: c.String()}
			for _, k := range kinds {
				s.values = append(s.values, rate(r.Predictors[0], k, c))
			}
			ss = append(ss, s)
		}
		p, err = barChart("Exact match by component, "+level+" level: "+shortName(r.Predictors[0]), "exact match %", cats, ss)
		if err != nil {
			return paths, err
		}
		if path, err = savePNG(p, dir, "components_"+level+".png"); err != nil {
			return paths, err
		}
		paths = append(paths, path)
		if c := r.Calibration[level]; c != nil {
			more, err := c.Plot(dir, level, shortName(r.Calibrated))
			paths = append(paths, more...)
			if err != nil {
				return paths, err
			}
		}
	}
	return paths, nil
}

// reliabilityChart draws the share right against the mean confidence of each bin,
// one line per series, over the diagonal of perfect calibration.
func reliabilityChart(title string, labels []string, rs []*Reliability) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "confidence"
	p.Y.Label.Text = "right %"
	p.X.Min, p.X.Max = 0, 1
	p.Y.Min, p.Y.Max = 0, 115
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	diag, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 100}})
	if err != nil {
		return nil, err
	}
	diag.Color = palette[1]
	diag.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(diag)
	p.Legend.Add("calibrated", diag)
	for j, r := range rs {
		var pts plotter.XYs
		for b := 0; b < NumBins; b++ {
			if conf, acc, ok := r.Bin(b); ok {
				pts = append(pts, plotter.XY{X: conf, Y: 100 * acc})
			}
		}
		if len(pts) == 0 {
			continue
		}
		l, sc, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, err
		}
		c := palette[[]int{2, 0, 3, 4, 5}[j%5]] // not the diagonal's grey
		l.Color, sc.Color = c, c
		p.Add(l, sc)
		p.Legend.Add(labels[j], l, sc)
	}
	return p, nil
}

// Plot draws the reliability diagrams of a level into dir: reliability_LEVEL.png
// (every part, all actions) and reliability_state_LEVEL.png (the whole state, one
// line per action).
func (c *Calibration) Plot(dir, level, predictor string) ([]string, error) {
	var labels []string
	var rs []*Reliability
	for _, p := range ConfParts {
		if c.All[p].Total() > 0 {
			labels, rs = append(labels, p.String()), append(rs, &c.All[p])
		}
	}
	p, err := reliabilityChart("Reliability by part, "+level+" level: "+predictor, labels, rs)
	if err != nil {
		return nil, err
	}
	first, err := savePNG(p, dir, "reliability_"+level+".png")
	if err != nil {
		return nil, err
	}
	labels, rs = nil, nil
	for _, k := range grammar.AllActions {
		if a := c.ByAction[k]; a != nil && a[PartState].Total() > 0 {
			labels, rs = append(labels, k.String()), append(rs, &a[PartState])
		}
	}
	if p, err = reliabilityChart("Reliability of the whole state by action, "+level+" level", labels, rs); err != nil {
		return []string{first}, err
	}
	second, err := savePNG(p, dir, "reliability_state_"+level+".png")
	if err != nil {
		return []string{first}, err
	}
	return []string{first, second}, nil
}
