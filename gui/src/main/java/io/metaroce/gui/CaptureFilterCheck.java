package io.metaroce.gui;

import io.metaroce.capture.live.CaptureLimits;
import java.util.LinkedHashSet;
import java.util.Set;
import javafx.beans.value.ObservableStringValue;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;

/**
 * Wireshark's green/red capture filter field: as the user types, libpcap compiles the filter for the link type of
 * each chosen interface (no root needed: {@link CaptureLimits#filterProblem}); green when it compiles, red with
 * libpcap's message (in the tooltip and, when given, a label) when it does not, plain when empty. The check runs only
 * on a change, so that an untouched field loads no libpcap at start-up.
 */
final class CaptureFilterCheck {
    static final String GOOD = "-fx-control-inner-background: #afffaf;";
    static final String BAD = "-fx-control-inner-background: #ffafaf;";

    private CaptureFilterCheck() { }

    static void install(TextField field, ObservableStringValue interfaces, Label message) {
        Runnable check = new Runnable() {
            @Override
            public void run() {
                String why = problem(field.getText(), interfaces.get());
                boolean empty = field.getText() == null || field.getText().isBlank();
                field.setStyle(empty ? "" : why == null ? GOOD : BAD);
                field.setTooltip(why == null ? null : new Tooltip(why));
                if (message != null) message.setText(why == null ? "" : why);
            }
        };
        field.textProperty().addListener((o, a, b) -> check.run());
        interfaces.addListener((o, a, b) -> {
            if (field.getStyle() != null && !field.getStyle().isEmpty()) check.run();
        });
    }

    /** Why the filter does not compile for one of the interfaces' link types (Ethernet if none is named), or null. */
    static String problem(String filter, String interfaces) {
        if (filter == null || filter.isBlank()) return null;
        Set<Integer> types = new LinkedHashSet<>();
        for (String n : CaptureSettings.names(interfaces)) types.add(CaptureLimits.linkType(n));
        if (types.isEmpty()) types.add(1);
        for (int t : types) {
            String why = CaptureLimits.filterProblem(filter.strip(), t);
            if (why != null) return why;
        }
        return null;
    }
}
