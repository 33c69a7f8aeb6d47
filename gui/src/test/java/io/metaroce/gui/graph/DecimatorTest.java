package io.metaroce.gui.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DecimatorTest {
    /** Every pixel column keeps the lowest and highest value of its points, and at most four points are drawn. */
    @Test
    void keepsEachColumnsExtremes() {
        SplittableRandom r = new SplittableRandom(7);
        int n = 200_000;
        long[] x = new long[n], y = new long[n];
        long t = 0;
        for (int i = 0; i < n; i++) {
            t += 1 + r.nextInt(20);
            x[i] = t;
            // A rising line with spikes both ways, as retransmissions draw on a PSN graph.
            y[i] = i + (r.nextInt(1000) == 0 ? -5000 + r.nextInt(10000) : 0);
        }
        Viewport v = new Viewport(0, t + 1, -10_000, n + 10_000, 800, 400);
        Decimator d = new Decimator();
        int k = d.decimate(x, y, n, v);
        double[] min = new double[800], max = new double[800];
        java.util.Arrays.fill(min, Double.MAX_VALUE);
        java.util.Arrays.fill(max, -Double.MAX_VALUE);
        int[] perColumn = new int[800];
        for (int i = 0; i < n; i++) {
            int c = (int) Math.floor(v.px(x[i]));
            min[c] = Math.min(min[c], v.py(y[i]));
            max[c] = Math.max(max[c], v.py(y[i]));
        }
        double[] dmin = new double[800], dmax = new double[800];
        java.util.Arrays.fill(dmin, Double.MAX_VALUE);
        java.util.Arrays.fill(dmax, -Double.MAX_VALUE);
        for (int i = 0; i < k; i++) {
            int c = (int) Math.floor(d.xs()[i]);
            perColumn[c]++;
            dmin[c] = Math.min(dmin[c], d.ys()[i]);
            dmax[c] = Math.max(dmax[c], d.ys()[i]);
        }
        for (int c = 0; c < 800; c++) {
            assertEquals(min[c], dmin[c], "min of column " + c);
            assertEquals(max[c], dmax[c], "max of column " + c);
            assertTrue(perColumn[c] <= 4, "column " + c + " has " + perColumn[c] + " points");
        }
        assertTrue(k < 4 * 800 + 1 && k > 800, "points " + k);
    }

    /** Zoomed in, only the visible points (and one beyond each edge) are drawn, all of them when sparse. */
    @Test
    void drawsOnlyTheVisibleRangePlusOneEachSide() {
        long[] x = new long[1000], y = new long[1000];
        for (int i = 0; i < 1000; i++) {
            x[i] = i * 100L;
            y[i] = i;
        }
        Decimator d = new Decimator();
        int k = d.decimate(x, y, 1000, new Viewport(10_050, 20_050, 0, 1000, 1000, 100));
        // Points 101..200 are inside, 100 and 201 just outside.
        assertEquals(102, k);
        assertEquals(new Viewport(10_050, 20_050, 0, 1000, 1000, 100).py(100), d.ys()[0]);
    }

    @Test
    void emptySeriesDrawsNothing() {
        assertEquals(0, new Decimator().decimate(new long[0], new long[0], 0, new Viewport(0, 1, 0, 1, 10, 10)));
    }
}
