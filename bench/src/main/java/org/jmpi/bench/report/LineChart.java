package org.jmpi.bench.report;

import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A PNG line chart of a few series (JFreeChart, headless): {@code new LineChart("title", "size (bytes)",
 * true, "µs", true).series("C p50", xs, ys, false).write(path)}. Points that a logarithmic axis cannot
 * show (0 or below) and NaN are left out. A dashed series is drawn with a broken line (used for p99
 * next to the solid median).
 *
 * <p>Threading: confined to the caller.
 */
public final class LineChart
{
    private static final Color[] PALETTE = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c),
        new Color(0xff7f0e), new Color(0x9467bd), new Color(0x8c564b)};

    private final String title;
    private final String xLabel;
    private final boolean logX;
    private final String yLabel;
    private final boolean logY;
    private final XYSeriesCollection data = new XYSeriesCollection();
    private final List<Boolean> dashed = new ArrayList<>();
    private final List<Integer> colours = new ArrayList<>();

    public LineChart(final String title, final String xLabel, final boolean logX, final String yLabel, final boolean logY)
    {
        this.title = title;
        this.xLabel = xLabel;
        this.logX = logX;
        this.yLabel = yLabel;
        this.logY = logY;
    }

    /** Adds a series; {@code colour} indexes a fixed palette so related series (C p50, C p99) share one. */
    public LineChart series(final String name, final double[] xs, final double[] ys, final int colour, final boolean dash)
    {
        final XYSeries s = new XYSeries(name, false, true);
        for (int i = 0; i < Math.min(xs.length, ys.length); i++)
        {
            final boolean drawable = !Double.isNaN(xs[i]) && !Double.isNaN(ys[i]) && (!logX || xs[i] > 0) && (!logY || ys[i] > 0);
            if (drawable)
            {
                s.add(xs[i], ys[i]);
            }
        }
        data.addSeries(s);
        dashed.add(dash);
        colours.add(colour);
        return this;
    }

    /** Writes the chart as a {@code width} x {@code height} PNG. */
    public void write(final Path file, final int width, final int height) throws IOException
    {
        System.setProperty("java.awt.headless", "true");
        final ValueAxis x = axis(xLabel, logX, 2);
        final ValueAxis y = axis(yLabel, logY, 10);
        final XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        for (int i = 0; i < data.getSeriesCount(); i++)
        {
            renderer.setSeriesPaint(i, PALETTE[colours.get(i) % PALETTE.length]);
            renderer.setSeriesStroke(i, dashed.get(i) ?
                new BasicStroke(1.6f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f) :
                new BasicStroke(2f));
        }
        final XYPlot plot = new XYPlot(data, x, y, renderer);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        final JFreeChart chart = new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(file.toFile(), chart, width, height);
    }

    private static ValueAxis axis(final String label, final boolean log, final double base)
    {
        if (log)
        {
            final LogAxis axis = new LogAxis(label);
            axis.setBase(base);
            // Ticks at whole powers (every 4x on a base-2 axis), labelled with the value, not base^exponent.
            axis.setTickUnit(new NumberTickUnit(base == 2 ? 2 : 1));
            axis.setNumberFormatOverride(new DecimalFormat("#,##0.###", DecimalFormatSymbols.getInstance(Locale.ROOT)));
            axis.setMinorTickMarksVisible(true);
            axis.setSmallestValue(1e-3);
            return axis;
        }
        final NumberAxis axis = new NumberAxis(label);
        axis.setAutoRangeIncludesZero(true);
        return axis;
    }
}
