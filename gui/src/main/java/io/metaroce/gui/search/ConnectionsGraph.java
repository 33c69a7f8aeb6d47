package io.metaroce.gui.search;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import javafx.scene.Cursor;
import javafx.scene.Node;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.Pane;
import javafx.scene.paint.Color;
import javafx.scene.shape.Circle;
import javafx.scene.shape.Line;
import javafx.scene.text.Text;
import javafx.util.Duration;

/**
 * The Connections graph of the flow search (Arkime's Connections view): senders in a column on the left, receivers
 * on the right, each ordered by the sum of their links, and a link per host pair whose width is the pair's share of
 * the largest sum (so the hot receiver of an incast draws thick lines into one node), red when the pair
 * retransmitted. A link's tooltip gives the pair's numbers; a click hands the pair to {@link #setOnLink}. Two
 * columns rather than a circle: the direction of a RoCE flow (requester to responder) reads at a glance.
 */
public final class ConnectionsGraph extends Pane {
    /** A link's colour: the pair retransmitted, or not. */
    public static final Color RETRANSMITTED = Color.web("#d62728", 0.8), CLEAN = Color.web("#1f77b4", 0.55);
    private static final double MAX_WIDTH = 12, NODE = 6, MARGIN = 22;
    private List<ConnectionRow> rows = List.of();
    private String counter = "";
    private Consumer<ConnectionRow> onLink = r -> {};
    /** The clickable line of each pair drawn, in the order of the rows (for tests and the tooltip). */
    private final List<Line> links = new ArrayList<>();

    public ConnectionsGraph() {
        setId("connections-graph");
        setMinSize(300, 200);
        widthProperty().addListener((o, a, b) -> draw());
        heightProperty().addListener((o, a, b) -> draw());
    }

    /** Draws these pairs, their links sized by the counter named. */
    public void show(List<ConnectionRow> pairs, String counterName) {
        rows = List.copyOf(pairs);
        counter = counterName;
        draw();
    }

    public void setOnLink(Consumer<ConnectionRow> handler) { onLink = handler; }

    /** The clickable lines, one per pair (its {@link Node#getUserData()} is the pair's {@link ConnectionRow}). */
    public List<Line> links() { return List.copyOf(links); }

    private void draw() {
        getChildren().clear();
        links.clear();
        if (rows.isEmpty()) return;
        Map<String, Long> senders = totals(rows, true), receivers = totals(rows, false);
        double w = getWidth(), h = getHeight();
        double left = Math.min(220, w * 0.3), right = w - left;
        Map<String, Double> ys = new LinkedHashMap<>(), yr = new LinkedHashMap<>();
        place(senders, ys, h);
        place(receivers, yr, h);
        long max = 1, maxFlows = 1;
        for (ConnectionRow r : rows) {
            max = Math.max(max, r.sum());
            maxFlows = Math.max(maxFlows, r.flows());
        }
        boolean bySum = rows.getFirst().sum() > 0;   // all zero: size by flows instead (Arkime's sessions)
        List<Node> lines = new ArrayList<>(), hits = new ArrayList<>();
        for (ConnectionRow r : rows) {
            double share = bySum ? (double) r.sum() / max : (double) r.flows() / maxFlows;
            double x1 = left + NODE, y1 = ys.get(r.src()), x2 = right - NODE, y2 = yr.get(r.dst());
            Line line = new Line(x1, y1, x2, y2);
            line.setStroke(r.retransmitted() > 0 ? RETRANSMITTED : CLEAN);
            line.setStrokeWidth(1 + (MAX_WIDTH - 1) * share);
            line.setMouseTransparent(true);
            lines.add(line);
            // A transparent wider line over it takes the hover and the click, so a 1-pixel link is easy to hit.
            Line hit = new Line(x1, y1, x2, y2);
            hit.setStroke(Color.TRANSPARENT);
            hit.setStrokeWidth(Math.max(10, line.getStrokeWidth()));
            hit.setUserData(r);
            hit.setCursor(Cursor.HAND);
            Tooltip t = new Tooltip(r.src() + " \u2192 " + r.dst() + "\nflows: " + r.flows() + "\n" + counter + ": " + r.sum()
                    + (counter.equals(FlowSearchModel.RETRANSMITTED) ? "" : "\n" + FlowSearchModel.RETRANSMITTED + ": " + r.retransmitted())
                    + "\nclick: search these flows");
            t.setShowDelay(Duration.millis(100));
            Tooltip.install(hit, t);
            hit.setOnMouseEntered(e -> line.setOpacity(0.6));
            hit.setOnMouseExited(e -> line.setOpacity(1));
            hit.setOnMouseClicked(e -> onLink.accept(r));
            hits.add(hit);
            links.add(hit);
        }
        getChildren().addAll(lines);
        getChildren().addAll(hits);
        nodes(ys, left, true);
        nodes(yr, right, false);
        Text head = new Text(8, 14, "senders");
        Text tail = new Text(w - 70, 14, "receivers");
        getChildren().addAll(head, tail);
    }

    /** Hosts by the sum of their links (then flows, then name), largest first: where the eye starts. */
    private static Map<String, Long> totals(List<ConnectionRow> rows, boolean senders) {
        Map<String, long[]> t = new LinkedHashMap<>();
        for (ConnectionRow r : rows) {
            long[] v = t.computeIfAbsent(senders ? r.src() : r.dst(), k -> new long[2]);
            v[0] += r.sum();
            v[1] += r.flows();
        }
        List<Map.Entry<String, long[]>> e = new ArrayList<>(t.entrySet());
        e.sort((a, b) -> a.getValue()[0] != b.getValue()[0] ? Long.compare(b.getValue()[0], a.getValue()[0])
                : a.getValue()[1] != b.getValue()[1] ? Long.compare(b.getValue()[1], a.getValue()[1]) : a.getKey().compareTo(b.getKey()));
        Map<String, Long> out = new LinkedHashMap<>();
        for (var x : e) out.put(x.getKey(), x.getValue()[0]);
        return out;
    }

    private static void place(Map<String, Long> hosts, Map<String, Double> ys, double h) {
        int n = hosts.size(), i = 0;
        double step = (h - 2 * MARGIN - 10) / Math.max(1, n);
        for (String host : hosts.keySet()) ys.put(host, MARGIN + 10 + step * (i++ + 0.5));
    }

    private void nodes(Map<String, Double> ys, double x, boolean leftSide) {
        for (var e : ys.entrySet()) {
            Circle c = new Circle(x, e.getValue(), NODE, Color.web("#444444"));
            Text label = new Text(e.getKey());
            label.setY(e.getValue() + 4);
            label.setX(leftSide ? x - NODE - 6 - label.getLayoutBounds().getWidth() : x + NODE + 6);
            getChildren().addAll(c, label);
        }
    }
}
