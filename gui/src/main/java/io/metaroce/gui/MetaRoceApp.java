package io.metaroce.gui;

import javafx.application.Application;
import javafx.stage.Stage;

/** The JavaFX application: one main window, opening the capture named on the command line (if any) with its filter. */
public final class MetaRoceApp extends Application {
    private GuiContext context;

    @Override
    public void start(Stage stage) {
        context = new GuiContext(stage);
        // Checked by GuiMain before the toolkit started: parsed again here, where the application is.
        GuiArgs args;
        try {
            args = GuiArgs.parse(getParameters().getRaw().toArray(new String[0]));
        } catch (GuiArgs.UsageException e) {
            throw new IllegalStateException(e);
        }
        MainWindow window = new MainWindow(context, args.profile());     // -C: its profile's files, else the last used
        window.show();
        // -d: before the capture opens, which it then dissects with; added to the ports Decode As saved (as Wireshark's -d)
        java.util.Set<Integer> ports = new java.util.LinkedHashSet<>(context.decodeAsPorts());
        ports.addAll(args.rocePorts());
        context.decodeAs(ports);
        if (args.resolveFlags() != null || !args.hosts().isEmpty()) window.nameResolution().commandLine(args.resolveFlags(), args.hosts());
        if (args.file() != null) window.open(args.file(), args.filter());
    }

    @Override
    public void stop() {
        if (context != null) context.close();
    }
}
