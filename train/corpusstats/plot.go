package corpusstats

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Plot sizes and resolution.
const (
	plotWidth  = 16 * vg.Centimeter
	plotHeight = 10 * vg.Centimeter
	plotDPI    = 144
	// maxIntBins is the largest range of counts drawn with one bin per value.
	maxIntBins = 60
	// tokenBins is the number of bins of a token histogram.
	tokenBins = 40
	// binGap is the share of a histogram bin left empty between bins.
	binGap = 0.12
	// headroom is the height of the plot over its tallest bar, room for the legend.
	headroom = 1.3
)

// Colors: a level's forward and inverse trajectories get a dark and a light shade.
var (
	colorOurs  = color.RGBA{R: 0x30, G: 0x30, B: 0x30, A: 0xff}
	colorPaper = color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}
	shades     = map[string][2]color.Color{
		"function":   {color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}, color.RGBA{R: 0x9e, G: 0xc9, B: 0xe8, A: 0xff}},
		"repository": {color.RGBA{R: 0xe0, G: 0x70, B: 0x0a, A: 0xff}, color.RGBA{R: 0xfd, G: 0xc0, B: 0x86, A: 0xff}},
	}
	otherShades = [2]color.Color{color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}, color.RGBA{R: 0xa6, G: 0xdb, B: 0xa0, A: 0xff}}
)

// shade returns the color of a level's direction.
func shade(level, direction string) color.Color {
	s, ok := shades[level]
	if !ok {
		s = otherShades
	}
	if direction == "inverse" {
		return s[1]
	}
	return s[0]
}

// Plot draws the figures into dir (created if needed) as PNG files and returns their
// paths: for each level with trajectories, tokens_LEVEL.png and actions_LEVEL.png
// (histograms of the share of trajectories by count, forward and inverse side by
// side in each bin, with our mean and the paper's as vertical lines), and events.png
// (the event mix of each level and direction as grouped bars).
func (s *Stats) Plot(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var paths []string
	save := func(p *plot.Plot, name string) error {
		path := filepath.Join(dir, name)
		if err := savePNG(p, path); err != nil {
			return err
		}
		paths = append(paths, path)
		return nil
	}
	tokenUnit := "tokens"
	if s.Estimated {
		tokenUnit = "tokens (bytes/4 estimate)"
	}
	for _, level := range s.LevelNames() {
		if s.Group(level, All).N() == 0 {
			continue
		}
		ref := Paper[level]
		p, err := s.histogram(level, "tokens per trajectory", tokenUnit, ref.Tokens, func(g *Group) []int { return g.Tokens }, false)
		if err != nil {
			return paths, err
		}
		if err := save(p, "tokens_"+level+".png"); err != nil {
			return paths, err
		}
		p, err = s.histogram(level, "actions per trajectory", "actions", ref.Actions, func(g *Group) []int { return g.Actions }, true)
		if err != nil {
			return paths, err
		}
		if err := save(p, "actions_"+level+".png"); err != nil {
			return paths, err
		}
	}
	if s.Trajectories() > 0 {
		p, err := s.eventChart()
		if err != nil {
			return paths, err
		}
		if err := save(p, "events.png"); err != nil {
			return paths, err
		}
	}
	return paths, nil
}

// histogram draws one level's distribution of a per-trajectory count. Small integer
// ranges (counts) get one bin per value; others get tokenBins bins up to the 99th
// percentile, and the trajectories beyond are counted in the axis label.
func (s *Stats) histogram(level, what, unit string, paperMean float64, values func(*Group) []int, integer bool) (*plot.Plot, error) {
	all := values(s.Group(level, All))
	slices.Sort(all)
	var dirs []*Group
	for _, g := range s.Groups {
		if g.Level == level && len(values(g)) > 0 {
			dirs = append(dirs, g)
		}
	}

	// The bins: [lo + i*width, lo + (i+1)*width) for i < nbins.
	var lo, width float64
	var nbins int
	if top := all[len(all)-1]; integer && top-all[0] <= maxIntBins {
		lo, width, nbins = float64(all[0])-0.5, 1, top-all[0]+1
	} else {
		upper := math.Max(Quantile(all, 0.99), 1)
		width = niceStep(upper / tokenBins)
		nbins = int(math.Floor(upper/width)) + 1
		if integer {
			width = math.Max(1, math.Round(width))
			nbins = int(math.Floor(upper/width)) + 1
			lo = -0.5
		}
	}
	hidden := 0
	for _, v := range all {
		if float64(v) >= lo+float64(nbins)*width {
			hidden++
		}
	}

	p := plot.New()
	title := "function level"
	if level != "function" {
		title = level + " level"
	}
	p.Title.Text = fmt.Sprintf("%s: %s (n = %d)", strings.ToUpper(title[:1])+title[1:], what, len(all))
	p.X.Label.Text = unit + " per trajectory"
	if hidden > 0 {
		p.X.Label.Text += fmt.Sprintf("  (%d above %.0f not shown)", hidden, lo+float64(nbins)*width)
	}
	p.Y.Label.Text = "% of the direction's trajectories"
	p.Legend.Top = true
	p.Add(plotter.NewGrid())

	ymax := 0.0
	for j, g := range dirs {
		vals := values(g)
		h := &plotter.Histogram{
			Width:     width * (1 - binGap) / float64(len(dirs)),
			FillColor: shade(level, g.Direction),
			LineStyle: draw.LineStyle{Color: color.White, Width: vg.Points(0.25)},
		}
		counts := make([]int, nbins)
		for _, v := range vals {
			if i := int(math.Floor((float64(v) - lo) / width)); i >= 0 && i < nbins {
				counts[i]++
			}
		}
		for i, c := range counts {
			x := lo + (float64(i)+binGap/2)*width + float64(j)*h.Width
			w := 100 * float64(c) / float64(len(vals))
			h.Bins = append(h.Bins, plotter.HistogramBin{Min: x, Max: x + h.Width, Weight: w})
			ymax = math.Max(ymax, w)
		}
		p.Add(h)
		p.Legend.Add(fmt.Sprintf("%s (n = %d, mean %.2f)", g.Direction, len(vals), Summarize(vals).Mean), h)
	}
	ymax *= 1.05
	p.Y.Max = ymax * headroom
	p.Y.Tick.Marker = stepTicks{niceStep(p.Y.Max / 5)}
	p.X.Min, p.X.Max = lo, math.Max(lo+float64(nbins)*width, paperMean*1.05)
	p.X.Tick.Marker = stepTicks{niceStep((p.X.Max - p.X.Min) / 6)}
	mean := Summarize(all).Mean
	if err := vline(p, mean, ymax, colorOurs, nil, fmt.Sprintf("ours: mean %.2f, median %.0f", mean, Quantile(all, 0.5))); err != nil {
		return nil, err
	}
	if paperMean > 0 {
		if err := vline(p, paperMean, ymax, colorPaper, []vg.Length{vg.Points(5), vg.Points(3)}, fmt.Sprintf("paper: mean %.2f", paperMean)); err != nil {
			return nil, err
		}
	}
	p.Y.Min = 0
	return p, nil
}

// vline adds a vertical line at x from 0 to ymax, with a legend entry.
func vline(p *plot.Plot, x, ymax float64, c color.Color, dashes []vg.Length, label string) error {
	l, err := plotter.NewLine(plotter.XYs{{X: x, Y: 0}, {X: x, Y: ymax}})
	if err != nil {
		return err
	}
	l.Color, l.Width, l.Dashes = c, vg.Points(1.5), dashes
	p.Add(l)
	p.Legend.Add(label, l)
	return nil
}

// niceStep rounds a bin width up to 1, 2 or 5 times a power of ten.
func niceStep(x float64) float64 {
	if x <= 1 {
		return 1
	}
	pow := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*pow >= x {
			return m * pow
		}
	}
	return 10 * pow
}

// eventChart draws the event mix: for each event kind, one bar per level and
// direction with trajectories, the share of that group's states.
func (s *Stats) eventChart() (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Event mix: share of the states of each level and direction"
	p.Y.Label.Text = "% of states"
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	var groups []*Group
	for _, g := range s.Groups {
		if g.N() > 0 {
			groups = append(groups, g)
		}
	}
	ymax := 0.0
	barWidth := vg.Length(float64(plotWidth) * 0.75 / float64(len(EventKinds)) / float64(len(groups)))
	for j, g := range groups {
		vals := make(plotter.Values, len(EventKinds))
		for i := range EventKinds {
			vals[i] = 100 * g.EventShare(i)
			ymax = math.Max(ymax, vals[i])
		}
		b, err := plotter.NewBarChart(vals, barWidth)
		if err != nil {
			return nil, err
		}
		b.Color = shade(g.Level, g.Direction)
		b.LineStyle.Width = 0
		b.Offset = vg.Length(float64(j)-float64(len(groups)-1)/2) * barWidth
		p.Add(b)
		p.Legend.Add(fmt.Sprintf("%s %s (n = %d)", g.Level, g.Direction, g.N()), b)
	}
	p.NominalX(EventKinds...)
	p.Y.Min = 0
	p.Y.Max = ymax * headroom
	p.Y.Tick.Marker = stepTicks{niceStep(p.Y.Max / 5)}
	return p, nil
}

// stepTicks labels an axis every step, with an unlabelled tick halfway.
type stepTicks struct{ step float64 }

// Ticks returns the ticks between lo and hi.
func (t stepTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	half := t.step / 2
	for i := math.Ceil(lo / half); i*half <= hi; i++ {
		v := i * half
		if v == 0 {
			v = 0 // +0, not "-0"
		}
		label := ""
		if math.Mod(i, 2) == 0 {
			label = strconv.FormatFloat(v, 'f', -1, 64)
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: label})
	}
	return ticks
}

// savePNG renders p at plotDPI into a PNG file.
func savePNG(p *plot.Plot, path string) error {
	c := vgimg.NewWith(vgimg.UseWH(plotWidth, plotHeight), vgimg.UseDPI(plotDPI))
	p.Draw(draw.New(c))
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
