package io.metaroce.gui;

import java.nio.file.Path;
import java.util.List;
import javafx.application.Application;
import javafx.stage.Stage;

/** The JavaFX application: one main window, opening the file named on the command line if any. */
public final class MetaRoceApp extends Application {
    private GuiContext context;

    @Override
    public void start(Stage stage) {
        context = new GuiContext(stage);
        MainWindow window = new MainWindow(context);
        window.show();
        List<String> args = getParameters().getUnnamed();
        if (!args.isEmpty()) context.open(Path.of(args.get(0)));
    }

    @Override
    public void stop() {
        if (context != null) context.close();
    }
}
