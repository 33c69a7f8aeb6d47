package io.metaroce.cli;

import io.metaroce.capture.live.LivePacketSource;
import io.metaroce.validate.FileResult;
import io.metaroce.validate.FileValidator;
import io.metaroce.validate.Finding;
import io.metaroce.validate.Validation;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * {@code validate -i}: the rules of {@code validate FILE} over a live capture (only the frame source differs).
 * Each finding is printed on one line as soon as the rules decide it (on stdout for the text report, else on
 * stderr, so that a JSON, SARIF or JUnit document stays whole); the report and the exit code (0, 1 at or above
 * --fail-on, 2) come when the capture ends (Ctrl-C, SIGTERM, -c, -a duration).
 */
final class LiveValidate {
    private LiveValidate() {}

    static int run(Validation.Request req, LiveOptions live, long count, Validation.Format format, Path output, Path report,
                   PrintStream out, PrintStream err) {
        if (!req.inputs.isEmpty()) {
            err.println("metaroce validate: give either capture files or -i, not both");
            return 2;
        }
        LiveSession.Autostop stop;
        try {
            stop = LiveSession.Autostop.parse(live.autostop);
        } catch (IllegalArgumentException e) {
            err.println("metaroce validate: " + e.getMessage());
            return 2;
        }
        if (count < 0) {
            err.println("metaroce validate: -c must not be negative");
            return 2;
        }
        req.format = format;
        req.output = output;
        req.report = report;
        LiveSession session = LiveSession.start("validate", live, req.settings.analysis().rocePorts(), count, stop.durationNanos(), err);
        if (session == null) return 2;
        FileResult result;
        try (LivePacketSource src = new LivePacketSource(session.capture())) {
            PrintStream stream = format == Validation.Format.text && output == null ? out : err;
            result = FileValidator.validate(src, String.join(",", live.interfaces), req.settings, report != null, f -> session.println(stream, line(f)));
        } finally {
            session.close();
            session.summary();
        }
        int code = Validation.report(req, List.of(result), false, out, err);
        return session.capture().error() != null ? 2 : code;
    }

    /** One finding as it is decided: the report's detail line (frames added later are in the report). */
    static String line(Finding f) {
        return String.format(Locale.ROOT, "frame %-7d %-12s %-5s %s%s", f.frame(), f.rule(), f.severity().label(),
                f.flow() == null ? "" : f.flow() + ": ", f.message());
    }
}
