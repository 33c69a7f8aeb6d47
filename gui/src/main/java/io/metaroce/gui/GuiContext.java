package io.metaroce.gui;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.AnalysisSettings;
import io.metaroce.analysis.LiveAnalyzer;
import io.metaroce.capture.CaptureException;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.CaptureProblem;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.FrameIndex;
import io.metaroce.filter.DisplayFilter;
import io.metaroce.filter.FilterException;
import io.metaroce.filter.FilterField;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.stage.Stage;

/**
 * The state every view of the GUI shares, and the only way views change it: the opened capture
 * ({@link #captureProperty()}: the {@link FrameIndex} over the mapped file), the finished analysis
 * ({@link #analysisProperty()}: the engine's {@link AnalysisSession} with verdicts, events and per-flow frame lists,
 * computed once and only read by views), the frames the packet list shows ({@link #viewProperty()}), the applied
 * display filter and the selected frame ({@link #selectedFrameProperty()}, 0 for none). Views stay dumb: they
 * observe these properties and call {@link #select}, {@link #applyFilter} and {@link #open}; they never decode a
 * file on the UI thread. Every property is changed on the JavaFX thread only; the file work (index, analysis,
 * filter) runs on background threads, reports {@link #progressProperty()} and stops on {@link #cancel()}.
 *
 * <h2>Attaching a window (statistics, graphs)</h2>
 * <ol>
 *   <li>Write a class implementing {@link GuiWindow} (its menu, {@link GuiWindow.Place#STATISTICS} or
 *       {@link GuiWindow.Place#GRAPHS}, its title, and {@code open(GuiContext)} that builds and shows a
 *       {@link Stage} owned by {@link #stage()}), and add one instance to {@link GuiWindows#ALL}: the main window
 *       builds its Statistics and Graphs menus from that list (disabled until a capture is open).</li>
 *   <li>Read the data from {@link #analysis()} (null until the analysis finished: listen to
 *       {@link #analysisProperty()} and fill the window when it arrives); {@link AnalysisSession#flows()},
 *       {@link AnalysisSession#events()}, {@link AnalysisSession#verdictOf}, and from {@link #capture()} for frame
 *       times and bytes ({@link FrameIndex#timeNanos}). The per-flow frame lists ({@code framesOf}) are not
 *       recorded (50 B per frame): the frames of a flow are {@link #framesMatching} {@code analysis.flow == "id"}.
 *       Decode frames with a {@link FrameDecoder} of your own thread, never on the UI thread for more than a
 *       screenful.</li>
 *   <li>Link back to the packet list: {@link #select(int)} selects (and scrolls to) a frame; {@link #applyFilter}
 *       shows only the frames matching a display filter (e.g. {@code analysis.flow == "..."}); listen to
 *       {@link #selectedFrameProperty()} to mark the selected frame in a graph.</li>
 *   <li>Heavy work (a graph of a million points) runs off the UI thread; publish with {@link Platform#runLater}.</li>
 * </ol>
 */
public final class GuiContext {
    private final Stage stage;
    private final ReadOnlyObjectWrapper<OpenCapture> capture = new ReadOnlyObjectWrapper<>(this, "capture");
    private final ReadOnlyObjectWrapper<AnalysisSession> analysis = new ReadOnlyObjectWrapper<>(this, "analysis");
    private final ReadOnlyObjectWrapper<FrameView> view = new ReadOnlyObjectWrapper<>(this, "view", FrameView.EMPTY);
    private final ReadOnlyIntegerWrapper selectedFrame = new ReadOnlyIntegerWrapper(this, "selectedFrame", 0);
    /** Go > Back and Forward: the frames selected, in order (bounded; cleared with the capture). */
    final SelectionHistory history = new SelectionHistory();
    private final ReadOnlyStringWrapper appliedFilter = new ReadOnlyStringWrapper(this, "appliedFilter", "");
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper(this, "progress", 0);
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper(this, "status", "Ready");
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper(this, "busy", false);
    private final ReadOnlyStringWrapper banner = new ReadOnlyStringWrapper(this, "banner", null);
    private final ReadOnlyIntegerWrapper liveVerdicts = new ReadOnlyIntegerWrapper(this, "liveVerdicts", 0);
    /** The packet list's Time Display Format, so that windows showing times (the diagnosis) show them alike. */
    final ReadOnlyObjectWrapper<TimeFormat> timeFormat = new ReadOnlyObjectWrapper<>(this, "timeFormat", TimeFormat.RELATIVE);
    /**
     * The coloring rules (View > Coloring Rules, saved in {@link ColoringRules#defaultFile()}): the packet list and
     * the Flow Graph colour their rows by them, and recolour when the dialog saves new ones.
     */
    private final ReadOnlyObjectWrapper<ColoringRules> coloringRules = new ReadOnlyObjectWrapper<>(this, "coloringRules", ColoringRules.defaults());
    /**
     * Edit > Mark Packet and Set Time Reference: the marked and the reference frames of the open capture, a bit per
     * frame number (at most 128 KB each at 1 M frames; nothing in per-frame objects), cleared when it closes.
     * {@link #marksProperty()} counts their changes, so that the packet list repaints and the menus update.
     */
    private final java.util.BitSet marked = new java.util.BitSet(), timeRefs = new java.util.BitSet();
    private final ReadOnlyIntegerWrapper marks = new ReadOnlyIntegerWrapper(this, "marks", 0);
    /**
     * Edit > Ignore/Unignore Packet: the ignored frames of the open capture, a bit per frame number (at most 128 KB at
     * 1 M frames), and Edit > Time Shift's shift of every frame's time (null: the file's times), which the frame
     * index applies ({@link io.metaroce.dissector.FrameIndex#shiftTimes}). Both change what the analysis reads:
     * a change runs it again without the ignored frames and with the shifted times ({@link #reanalyze}).
     * {@link #editsProperty()} counts their changes. Kept when Decode As opens the capture again; cleared with it.
     */
    private final java.util.BitSet ignored = new java.util.BitSet();
    private TimeShift timeShift;
    private final ReadOnlyIntegerWrapper edits = new ReadOnlyIntegerWrapper(this, "edits", 0);
    /** The ignored frames and time shift for the next load (Decode As, Save: the same frames), read by its thread. */
    private volatile Edits carried = Edits.NONE;
    /** An ignore or shift made while the capture loaded: its analysis (of the frames before) runs again when done. */
    private boolean reanalyzeAfterLoad;

    /** The ignored frames and the time shift as one analysis run reads them (copies: immutable). */
    record Edits(java.util.BitSet ignored, TimeShift shift) {
        static final Edits NONE = new Edits(new java.util.BitSet(), null);

        boolean none() { return ignored.isEmpty() && shift == null; }
    }

    /** View > Name Resolution's resolver (the packet list's Source and Destination, Statistics > Resolved Addresses). */
    private final javafx.beans.property.ObjectProperty<io.metaroce.dissector.NameResolver> names =
            new javafx.beans.property.SimpleObjectProperty<>(this, "names", io.metaroce.dissector.NameResolver.NONE);
    /** The marks and references as the filters' frame.marked and frame.ref_time read them (a copy per change). */
    private volatile GuiFields.Marks marksForFilters = GuiFields.Marks.NONE;
    /**
     * Edit > Packet Comments: the open capture's comments as edited (only the edited frames are held); cleared when
     * it closes or is saved. {@link #commentsProperty()} counts the edits, so that the views follow them.
     */
    private final PacketComments comments = new PacketComments();
    private final ReadOnlyIntegerWrapper commentEdits = new ReadOnlyIntegerWrapper(this, "commentEdits", 0);
    /** The open capture is a live capture's temporary file (or the capture running), not saved anywhere yet. */
    private boolean liveUnsaved;
    /** True when closing the open capture would lose something: edited comments, an unsaved live capture. */
    private final ReadOnlyBooleanWrapper unsaved = new ReadOnlyBooleanWrapper(this, "unsaved", false);
    /** Asked before View > Reload drops unsaved changes (the main window's Save prompt); false: do not reload. */
    private java.util.function.Predicate<String> beforeDiscard = action -> true;
    /**
     * The analysis settings of the open capture (and of the next one opened): {@link AnalysisSettings#DEFAULT} but
     * for the UDP ports decoded as RoCE, which {@code metaroce gui -d} and Analyze > Decode As set
     * ({@link #decodeAs}). Every dissection and analysis of the GUI reads them: the packet list, the tree, the
     * filters, the analysis and the windows that run their own passes. Decode As > Save keeps them for the next
     * sessions, in Wireshark's decode_as_entries file ({@link DecodeAsEntries}).
     */
    private final ReadOnlyObjectWrapper<AnalysisSettings> settings = new ReadOnlyObjectWrapper<>(this, "settings", AnalysisSettings.DEFAULT);
    /** The frame selected when Decode As opened the capture again, selected once it is shown again; 0 for none. */
    private int reselect;
    /**
     * Counts the times Decode As or Reload opened the capture again and its frames are shown again: the statistics
     * windows open on it compute again then, as Wireshark retaps its open dialogs after a Decode As.
     */
    private final ReadOnlyIntegerWrapper redissections = new ReadOnlyIntegerWrapper(this, "redissections", 0);
    /** The generation of the load Decode As or Reload started (its end counts a redissection), or -1. */
    private int redissectGeneration = -1;
    private Path decodeAsFile;
    /** Decode As' ports (4791 among them), whatever Enabled Protocols says; the settings' are these or none. */
    private Set<Integer> decodeAsPorts = Set.of(io.metaroce.protocol.Spec.ROCE_UDP_PORT);
    /** Analyze > Enabled Protocols: the protocols switched off ({@link io.metaroce.dissector.EnabledProtocols}). */
    private Set<String> protocolsOff = Set.of();
    private Consumer<String> errorSink = message -> Dialogs.error(null, "MetaRoCE Analyzer", message);

    /** Work running in the background (load, analysis, filter), so that cancel() and a new open() can stop it. */
    private volatile Work loading, filtering;
    /** File > Save, Save As or Export Specified Packets writing in the background ({@link BackgroundSave}), or null. */
    private volatile Work saving;
    private CompletableFuture<AnalysisSession> analysisDone = new CompletableFuture<>();
    /**
     * The first frames of the open capture shown while its whole index was built, or null: closed with the
     * capture, not before (a filter started on it may still be reading it when the whole index arrives).
     */
    private OpenCapture firstFrames;
    /** The display filter last accepted by {@link #applyFilter} (perhaps still running), "" for none. */
    private String requestedFilter = "";
    /** Counts opens, so that late results of an earlier file are dropped. */
    private volatile int generation;    // read by the filter warm-up's thread
    /**
     * The running live capture's analysis while the packet list shows its frames ({@link #showLive}), until the
     * saved file's own analysis replaces it; else null.
     */
    private LiveAnalyzer.Monitor live;

    /** Captures from this size on show their first frames before the whole index is built. */
    static final long FIRST_SCREEN_BYTES = 64L << 20;
    /** Frames shown first: more than a packet list's row window, a few milliseconds to index. */
    static final int FIRST_SCREEN_FRAMES = 64 * 1024;

    /**
     * What the GUI's analysis keeps: verdicts and events, not the per-flow frame lists; those cost 50 B per frame
     * (measured at 1 M frames), most of the model's budget; a flow's frames are a filter away
     * ({@code analysis.flow == "..."}).
     */
    public static final AnalysisSession.Options ANALYSIS_OPTIONS = new AnalysisSession.Options(true, true, false);

    public GuiContext(Stage stage) {
        this.stage = stage;
        marks.addListener((o, a, b) -> publishForFilters());
        edits.addListener((o, a, b) -> publishForFilters());
        commentEdits.addListener((o, a, b) -> publishForFilters());
        selectedFrame.addListener((o, a, f) -> history.selected(f.intValue()));
    }

    private void publishForFilters() {
        marksForFilters = new GuiFields.Marks((java.util.BitSet) marked.clone(), (java.util.BitSet) timeRefs.clone(),
                comments.state(), (java.util.BitSet) ignored.clone());
    }

    /** The main window's stage: the owner of every dialog and window. */
    public Stage stage() { return stage; }

    public ReadOnlyObjectProperty<OpenCapture> captureProperty() { return capture.getReadOnlyProperty(); }
    public OpenCapture capture() { return capture.get(); }
    public ReadOnlyObjectProperty<AnalysisSession> analysisProperty() { return analysis.getReadOnlyProperty(); }
    /** The finished analysis of the open capture, or null while it runs (or when it was cancelled). */
    public AnalysisSession analysis() { return analysis.get(); }
    public ReadOnlyObjectProperty<FrameView> viewProperty() { return view.getReadOnlyProperty(); }
    public FrameView view() { return view.get(); }
    public ReadOnlyIntegerProperty selectedFrameProperty() { return selectedFrame.getReadOnlyProperty(); }
    /** The selected frame number, 0 for none. */
    public int selectedFrame() { return selectedFrame.get(); }
    /** The time format the packet list shows (View > Time Display Format). */
    public ReadOnlyObjectProperty<TimeFormat> timeFormatProperty() { return timeFormat.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<ColoringRules> coloringRulesProperty() { return coloringRules.getReadOnlyProperty(); }
    /** The coloring rules every row colouring view uses (the defaults until the main window loads the saved ones). */
    public ColoringRules coloringRules() { return coloringRules.get(); }
    /** Replaces the coloring rules (the dialog saved new ones, or the saved file was loaded); views recolour. */
    public void setColoringRules(ColoringRules rules) { coloringRules.set(rules); }
    public ReadOnlyStringProperty appliedFilterProperty() { return appliedFilter.getReadOnlyProperty(); }
    public ReadOnlyDoubleProperty progressProperty() { return progress.getReadOnlyProperty(); }
    public ReadOnlyStringProperty statusProperty() { return status.getReadOnlyProperty(); }
    public ReadOnlyBooleanProperty busyProperty() { return busy.getReadOnlyProperty(); }
    /** A problem with the open file the window shows above the packets (a cut capture), or null. */
    public ReadOnlyStringProperty bannerProperty() { return banner.getReadOnlyProperty(); }

    /**
     * The main window's filter bar, for the statistics windows' "Apply as Filter" and "Prepare as Filter" (null
     * without a main window: applying then goes to {@link #applyFilter} directly).
     */
    private Consumer<String> barPrepare, barApply;

    /** Connects the main window's filter bar: prepare puts a filter in it, apply puts it there and applies it. */
    void filterBar(Consumer<String> prepare, Consumer<String> apply) {
        barPrepare = prepare;
        barApply = apply;
    }

    /**
     * A window's "Apply as Filter" (apply) or "Prepare as Filter": the filter goes into the main window's filter bar,
     * as if typed there (and applied, with the bar's history and error display).
     */
    public void filterFromWindow(String text, boolean apply) {
        Consumer<String> bar = apply ? barApply : barPrepare;
        if (bar != null) bar.accept(text);
        else if (apply) applyFilter(text);
    }

    public ReadOnlyObjectProperty<AnalysisSettings> settingsProperty() { return settings.getReadOnlyProperty(); }
    /** The analysis settings of the open capture: the UDP ports decoded as RoCE ({@link #decodeAs}). */
    public AnalysisSettings settings() { return settings.get(); }

    /**
     * Decode As: the UDP destination ports decoded as RoCE from now on (4791 is always among them). An open capture
     * is opened again with them, as when it was opened first (the packet list dissects again, the analysis runs
     * again, the windows open on it compute again: {@link #redissectionsProperty()}); its display filter, selected
     * frame, marks and time references stay. A running live capture keeps its ports until it stops: the saved
     * capture opens with the new ones.
     */
    public void decodeAs(Set<Integer> rocePorts) {
        Set<Integer> ports = new java.util.LinkedHashSet<>();
        ports.add(io.metaroce.protocol.Spec.ROCE_UDP_PORT);
        ports.addAll(rocePorts);
        decodeAsPorts = Set.copyOf(ports);
        applyPorts();
    }

    /** Decode As' ports (4791 among them), also while Enabled Protocols has RoCE off (then none is decoded). */
    public Set<Integer> decodeAsPorts() { return decodeAsPorts; }

    /** The protocols Analyze > Enabled Protocols switched off. */
    public Set<String> protocolsOff() { return protocolsOff; }

    /**
     * Analyze > Enabled Protocols: RoCE (bth) off decodes no UDP port as RoCE, as Decode As with no port would; the
     * open capture is opened again when that changes what is decoded, as after Decode As.
     */
    public void enabledProtocols(Set<String> off) {
        protocolsOff = Set.copyOf(off);
        applyPorts();
    }

    /** The profile's switched-off protocols before its Decode As ports are applied (one reopen for both). */
    void setProtocolsOff(Set<String> off) { protocolsOff = Set.copyOf(off); }

    private void applyPorts() {
        Set<Integer> ports = io.metaroce.dissector.EnabledProtocols.ports(decodeAsPorts, protocolsOff);
        if (ports.equals(settings.get().rocePorts())) return;
        settings.set(settings.get().withPorts(ports));
        OpenCapture c = capture.get();
        if (c == null || live != null) return;
        reopen(c);
    }

    /**
     * Opens the capture again (Decode As, Reload): its display filter and selected frame stay, and so do the marks and
     * time references (same file, same frame numbers; open() clears them); the windows open on it follow
     * ({@link #redissectionsProperty()}).
     */
    private void reopen(OpenCapture c) {
        reopen(c.file(), true);
    }

    /** The ignored frames and the time shift now, as a run of the analysis reads them. */
    private Edits currentEdits() {
        return new Edits((java.util.BitSet) ignored.clone(), timeShift);
    }

    /**
     * As {@link #reopen(OpenCapture)}, from file (the open capture's, or the file it was just saved to);
     * keepComments: the edited comments stay (Decode As: the same file, nothing saved or lost), else they are the
     * file's again.
     */
    private void reopen(Path file, boolean keepComments) {
        int frame = selectedFrame.get();
        java.util.BitSet keepMarked = (java.util.BitSet) marked.clone(), keepRefs = (java.util.BitSet) timeRefs.clone();
        PacketComments.State keptComments = comments.state();
        boolean keptLive = liveUnsaved;
        int[] keptHistory = history.state();
        // The same frames: the ignored ones stay ignored; the time shift stays unless the file was saved with it
        // (keepComments false: Save, Reload: the file's times are the ones to show).
        Edits keptEdits = new Edits((java.util.BitSet) ignored.clone(), keepComments ? timeShift : null);
        carried = keptEdits;
        open(file, requestedFilter);
        carried = Edits.NONE;
        ignored.or(keptEdits.ignored());
        timeShift = keptEdits.shift();
        editsChanged();
        history.restore(keptHistory);
        if (keepComments) {
            comments.restore(keptComments);
            liveUnsaved = keptLive;
            commentsChanged();
        }
        marked.or(keepMarked);
        timeRefs.or(keepRefs);
        marks.set(marks.get() + 1);
        reselect = frame;
        redissectGeneration = generation;
    }

    /** The marks and time references as a display filter running off the JavaFX thread reads them. */
    GuiFields.Marks marksForFilters() { return marksForFilters; }

    /** Where Analyze > Decode As > Save writes the table ({@link DecodeAsEntries}); null: nowhere (Save disabled). */
    Path decodeAsFile() { return decodeAsFile; }

    void setDecodeAsFile(Path file) { decodeAsFile = file; }

    /** Counts the times Decode As or Reload opened the capture again ({@link #reopen}); windows follow it. */
    public ReadOnlyIntegerProperty redissectionsProperty() { return redissections.getReadOnlyProperty(); }

    /**
     * View > Reload: opens the open capture again (a file still being written shows its new frames), keeping its
     * display filter, selected frame, marks and time references, as Decode As does (the windows open on it compute
     * again). Nothing during a live capture (its list grows by itself).
     */
    public void reload() {
        OpenCapture c = capture.get();
        if (c == null || live != null || !mayDiscard("reloading it")) return;
        c = capture.get();      // the file Save wrote, when the prompt saved the changes
        if (c != null) reopen(c.file(), false);
    }

    /**
     * Before an action drops the open capture's unsaved changes (Reload: "reloading it", a new live capture: "starting
     * a new capture"): the main window's Save prompt. False: the user cancelled, the action must not go on.
     */
    boolean mayDiscard(String action) { return beforeDiscard.test(action); }

    /** What {@link #mayDiscard} asks (the main window: its Save prompt). */
    void setBeforeDiscard(java.util.function.Predicate<String> ask) { beforeDiscard = ask; }

    // ------------------------------------------------------------------ packet comments, saving

    /** Changes whenever a packet comment is added, edited or deleted, and when the capture was saved. */
    public ReadOnlyIntegerProperty commentsProperty() { return commentEdits.getReadOnlyProperty(); }

    /** The comments of a frame as they are now (the file's unless edited), in order; empty for none. */
    public List<String> comments(int frame) {
        OpenCapture c = capture.get();
        return c == null ? List.of() : comments.of(c.index(), frame);
    }

    /** The frames that have a comment now, ascending (Expert Info's and Capture File Properties' lists). */
    public int[] commentedFrames() {
        OpenCapture c = capture.get();
        return c == null ? new int[0] : comments.state().frames(c.index());
    }

    /** The comments as edited, for writing the capture (read on the JavaFX thread, immutable). */
    PacketComments.State commentsState() { return comments.state(); }

    void addComment(int frame, String text) {
        OpenCapture c = capture.get();
        if (c == null || frame < 1 || frame > c.frames()) return;
        comments.add(c.index(), frame, text);
        commentsChanged();
    }

    void editComment(int frame, int i, String text) {
        OpenCapture c = capture.get();
        if (c == null) return;
        comments.edit(c.index(), frame, i, text);
        commentsChanged();
    }

    void deleteComment(int frame, int i) {
        OpenCapture c = capture.get();
        if (c == null) return;
        comments.delete(c.index(), frame, i);
        commentsChanged();
    }

    /** Delete All Packet Comments: of every frame (displayedOnly: of the frames the packet list shows). */
    void deleteAllComments(boolean displayedOnly) {
        OpenCapture c = capture.get();
        if (c == null) return;
        if (displayedOnly && !view.get().isAll()) comments.deleteAll(c.index(), view.get().toArray());
        else comments.deleteAll();
        commentsChanged();
    }

    private void commentsChanged() {
        commentEdits.set(commentEdits.get() + 1);
        unsaved.set(liveUnsaved || comments.state().isEdited() || timeShift != null);
    }

    /** True when closing the open capture would lose edited comments, a time shift or an unsaved live capture. */
    public ReadOnlyBooleanProperty unsavedProperty() { return unsaved.getReadOnlyProperty(); }

    public boolean hasUnsavedChanges() { return unsaved.get(); }

    /**
     * Opens a temporary file that is not saved anywhere yet (File > Merge's result): as a live capture's, the title
     * says {@code *}, Save asks where to keep it, and closing it asks first.
     */
    void openUnsaved(Path temporary) {
        open(temporary);
        liveUnsaved = true;
        commentsChanged();
    }

    /** True when the open capture is a live capture not saved yet (its temporary file). */
    boolean isLiveUnsaved() { return liveUnsaved; }

    /** True while the frame index is built or a live capture's analysis runs: the index is not complete yet. */
    boolean isLoading() { return loading != null || live != null; }

    /** The user chose Continue without Saving: the changes are dropped (the file's comments are shown again). */
    void discardChanges() {
        comments.clear();
        liveUnsaved = false;
        commentsChanged();
    }

    /**
     * The open capture was saved to file (with its comments): that file opens in its place, keeping the display
     * filter, the selection, the marks and time references (the same frames, numbered alike); nothing is unsaved.
     */
    void openSaved(Path file) {
        liveUnsaved = false;
        reopen(file, false);
    }

    /** Where messages for the user go (a dialog by default; tests collect them). */
    public void setErrorSink(Consumer<String> sink) { errorSink = sink; }

    void error(String message) { errorSink.accept(message); }

    /** Shows a message in the status bar. */
    void status(String message) { status.set(message); }

    /** What the model of the open capture holds in memory (null when nothing is open). */
    public ModelMemory modelMemory() {
        OpenCapture c = capture.get();
        return c == null ? null : ModelMemory.of(c.index(), analysis.get(), view.get());
    }

    // ------------------------------------------------------------------ selection

    /**
     * Selects a frame (and the packet list scrolls to it). Returns false, selecting nothing, when the frame is
     * not in the capture or not shown by the current filter.
     */
    public boolean select(int frame) {
        if (frame == 0) {
            selectedFrame.set(0);
            return true;
        }
        OpenCapture c = capture.get();
        if (c == null || frame < 1 || frame > c.frames() || view.get().rowOf(frame) < 0) return false;
        selectedFrame.set(frame);
        return true;
    }

    /**
     * Go > Back (forward = false) and Forward: selects the previous (next) frame of the selection history that the
     * display filter shows, skipping those it hides; returns the frame, 0 when there is none (the selection stays).
     */
    public int goHistory(boolean forward) {
        return history.move(forward, f -> select(f));
    }

    // ------------------------------------------------------------------ marks and time references

    /** Changes whenever a mark or a time reference is set or cleared. */
    public ReadOnlyIntegerProperty marksProperty() { return marks.getReadOnlyProperty(); }

    /** View > Name Resolution's names: set by the main window's NameResolution; the views that show addresses follow it. */
    public javafx.beans.property.ObjectProperty<io.metaroce.dissector.NameResolver> namesProperty() { return names; }

    public boolean isMarked(int frame) { return frame > 0 && marked.get(frame); }

    /** The number of marked frames (Export Specified Packets' "Marked packets only"). */
    public int markedCount() { return marked.cardinality(); }

    /** The marked frames in capture order (a copy: an export reads it off the UI thread). */
    public int[] markedFrames() { return marked.stream().toArray(); }

    /** Marks or unmarks these frames. */
    public void setMarked(int[] frames, boolean on) {
        for (int f : frames) if (f > 0) marked.set(f, on);
        marks.set(marks.get() + 1);
    }

    /** Marks or unmarks every frame the packet list shows (Mark/Unmark All Displayed). */
    public void setMarkedDisplayed(boolean on) {
        FrameView v = view.get();
        if (v.isAll()) marked.set(1, v.size() + 1, on);
        else for (int r = 0; r < v.size(); r++) marked.set(v.frameAt(r), on);
        marks.set(marks.get() + 1);
    }

    public boolean isTimeReference(int frame) { return frame > 0 && timeRefs.get(frame); }

    /** Sets or unsets frame as a time reference (Set/Unset Time Reference). */
    public void toggleTimeReference(int frame) {
        if (frame <= 0) return;
        timeRefs.flip(frame);
        marks.set(marks.get() + 1);
    }

    public void clearTimeReferences() {
        timeRefs.clear();
        marks.set(marks.get() + 1);
    }

    public boolean hasTimeReferences() { return !timeRefs.isEmpty(); }

    /**
     * The reference a frame's relative time counts from, as Wireshark's frame.time_relative: the latest time
     * reference at or before it in capture order, else 0 (the first frame).
     */
    public int timeReferenceOf(int frame) { return frame <= 0 ? 0 : Math.max(0, timeRefs.previousSetBit(frame)); }

    /**
     * Selects the next (previous) shown frame after (before) the selected one that is marked, or a time reference,
     * wrapping at the end as Wireshark's Next Mark does. Returns the frame selected, 0 when there is none.
     */
    public int selectNext(boolean timeReference, boolean forward) {
        java.util.BitSet set = timeReference ? timeRefs : marked;
        FrameView v = view.get();
        int n = v.size();
        if (set.isEmpty() || n == 0) return 0;
        int sel = selectedFrame.get();
        int start = sel == 0 ? (forward ? -1 : n) : v.rowOf(sel);
        for (int k = 1; k <= n; k++) {
            int f = v.frameAt(Math.floorMod(start + (forward ? k : -k), n));
            if (set.get(f)) {
                select(f);
                return f;
            }
        }
        return 0;
    }

    // ------------------------------------------------------------------ ignored packets, time shift

    /** Changes whenever a frame is ignored or unignored, or the time shift changes. */
    public ReadOnlyIntegerProperty editsProperty() { return edits.getReadOnlyProperty(); }

    public boolean isIgnored(int frame) { return frame > 0 && ignored.get(frame); }

    /** The number of ignored frames (the status bar's "Ignored: N", Export's "Remove ignored packets"). */
    public int ignoredCount() { return ignored.cardinality(); }

    /** The ignored frames, a copy (an export reads it off the UI thread). */
    public java.util.BitSet ignoredFrames() { return (java.util.BitSet) ignored.clone(); }

    /** Ignores or unignores these frames (Edit > Ignore/Unignore Packet); the analysis runs again without them. */
    public void setIgnored(int[] frames, boolean on) {
        OpenCapture c = capture.get();
        if (c == null) return;
        boolean changed = false;
        for (int f : frames) {
            if (f < 1 || f > c.frames() || ignored.get(f) == on) continue;
            ignored.set(f, on);
            changed = true;
        }
        if (changed) edited();
    }

    /** Ignores or unignores every frame the packet list shows (Ignore All Displayed, Unignore All Displayed). */
    public void setIgnoredDisplayed(boolean on) {
        FrameView v = view.get();
        if (capture.get() == null || v.size() == 0) return;
        if (v.isAll()) ignored.set(1, v.size() + 1, on);
        else for (int r = 0; r < v.size(); r++) ignored.set(v.frameAt(r), on);
        edited();
    }

    /** Edit > Time Shift's shift now (null: the file's times). */
    TimeShift timeShift() { return timeShift; }

    /**
     * Shifts every frame's time (null: back to the file's times, Undo all shifts): the packet list, the tree, the
     * windows and a save read the shifted times, and the analysis runs again on them. A shift is an unsaved change
     * (Save writes the shifted times), as in Wireshark.
     */
    void shiftTimes(TimeShift s) {
        OpenCapture c = capture.get();
        if (c == null || java.util.Objects.equals(s, timeShift)) return;
        timeShift = s;
        c.index().shiftTimes(s);
        commentsChanged();      // the title's "*" and Save
        edited();
    }

    private void editsChanged() { edits.set(edits.get() + 1); }

    /** An ignore or a shift changed: the views repaint, the analysis and a filter applied run again. */
    private void edited() {
        editsChanged();
        reanalyze();
        if (!requestedFilter.isEmpty()) applyFilter(requestedFilter);
    }

    /**
     * Runs the analysis of the open capture again without its ignored frames and with its shifted times, as
     * Wireshark redissects after an ignore or a time shift: the packet list's verdicts, the tree's analysis fields,
     * a filter on them and the windows open on the capture ({@link #redissectionsProperty()}) follow the new one.
     * An analysis still running is cancelled first; during a load, the load's runs again when it is done.
     */
    private void reanalyze() {
        OpenCapture c = capture.get();
        if (c == null || live != null || c == firstFrames) {
            reanalyzeAfterLoad = c != null && live == null;
            return;
        }
        Work running = loading;
        if (running != null) {
            if (running.session == null) {      // still indexing: its analysis (of the edits before) runs again after
                reanalyzeAfterLoad = true;
                return;
            }
            running.cancel();
        }
        int gen = generation;
        CompletableFuture<AnalysisSession> done = new CompletableFuture<>(), before = analysisDone;
        analysisDone = done;
        if (!before.isDone()) before.cancel(false);
        analysis.set(null);
        Work w = new Work(this);
        loading = w;
        busy.set(true);
        progress.set(0);
        Edits e = currentEdits();
        status.set("Analyzing again" + (e.ignored().isEmpty() ? "" : " without the " + e.ignored().cardinality() + " ignored packets")
                + (e.shift() == null ? "" : ", with the shifted times") + " ...");
        redissections.set(redissections.get() + 1);     // the windows open on the capture wait for the new analysis
        AnalysisSettings st = settings.get();
        Path file = c.file();
        FrameIndex index = c.index();
        Thread.ofPlatform().daemon().name("metaroce-gui-reanalyze").start(() -> analyze(file, index, gen, w, done, st, e, 0));
    }

    // ------------------------------------------------------------------ opening

    /** Opens a capture in the background: first the frame index (the packet list shows), then the analysis. */
    public void open(Path file) {
        open(file, "");
    }

    /**
     * As {@link #open(Path)}, then applies a display filter (one that compiles; empty: none) as soon as the frame index
     * is built: the filter bar shows it from the start ({@code metaroce gui -r FILE -Y FILTER}).
     */
    public void open(Path file, String filter) {
        closeCapture();
        requestedFilter = filter;
        appliedFilter.set(filter);
        load(file);
    }

    private void load(Path file) {
        Edits e = carried;
        int gen = ++generation;
        CompletableFuture<AnalysisSession> done = new CompletableFuture<>();
        analysisDone = done;
        Work w = new Work(this);
        loading = w;
        busy.set(true);
        progress.set(0);
        status.set("Loading " + file.getFileName() + " ...");
        AnalysisSettings st = settings.get();
        Thread.ofPlatform().daemon().name("metaroce-gui-load").start(() -> load(file, gen, w, done, st, e));
    }

    private void load(Path file, int gen, Work w, CompletableFuture<AnalysisSession> done, AnalysisSettings st, Edits edits) {
        PacketSource src;
        try {
            src = CaptureFiles.open(file);
        } catch (CaptureException | RuntimeException e) {
            done.cancel(false);
            fx(gen, () -> {
                finishWork(w, "Not opened: " + file.getFileName());
                error("Cannot open " + file + ":\n" + e.getMessage());
            });
            return;
        }
        if (src.mapping() == null) {
            src.close();
            done.cancel(false);
            fx(gen, () -> finishWork(w, "Not opened"));
            return;
        }
        if (src.mapping().byteSize() >= FIRST_SCREEN_BYTES) showFirstFrames(file, gen, w, st);
        FrameIndex index;
        try {
            index = FrameIndex.build(src, (frames, pos, size) -> w.report(0.5 * pos / Math.max(1, size)),
                    () -> w.cancelled);
        } catch (RuntimeException e) {
            src.close();
            done.cancel(false);
            fx(gen, () -> {
                OpenCapture first = capture.get();
                if (first != null) closeCapture();      // the first frames were shown: the rest failed
                finishWork(w, "Not opened");
                error("Cannot read " + file + ":\n" + e.getMessage());
            });
            return;
        }
        FrameDecoder.decodeAs(index, st.rocePorts());
        index.shiftTimes(edits.shift());
        OpenCapture oc = new OpenCapture(file, src, index, index.problems(), index.cancelled());
        Platform.runLater(() -> {
            if (gen != generation) {
                oc.close();
                return;
            }
            OpenCapture first = capture.get();     // the first frames shown while the index was built, or null
            String filter = requestedFilter;     // applied, or still running over the first frames
            capture.set(oc);
            view.set(FrameView.all(oc.frames()));
            // The filter asked for while the frames loaded (typed over the first frames, or given with the file) runs
            // now over every frame; the bar keeps showing it.
            appliedFilter.set(filter);
            if (!filter.isEmpty()) applyFilter(filter);
            else reselect();
            banner.set(bannerText(oc));
            if (gen == redissectGeneration) {
                redissectGeneration = -1;
                redissections.set(redissections.get() + 1);
            }
            status.set(oc.frames() + " frames" + (oc.cancelled() ? " (loading cancelled)" : "") + "; analyzing ...");
        });
        if (w.cancelled || index.size() == 0) {
            done.cancel(false);
            fx(gen, () -> finishWork(w, index.size() + " frames" + (w.cancelled ? " (cancelled: not analyzed)" : "")));
            return;
        }
        analyze(file, index, gen, w, done, st, edits, 0.5);
    }

    /**
     * The analysis of the open capture's file (on the calling thread, a background one): of the whole file, or, with
     * ignored frames or a time shift, of the file without them and with the shifted times ({@link EditedSource}).
     * from: the fraction of the progress bar done before it starts.
     */
    private void analyze(Path file, FrameIndex index, int gen, Work w, CompletableFuture<AnalysisSession> done,
                         AnalysisSettings st, Edits edits, double from) {
        AnalysisSession s = new AnalysisSession(st, ANALYSIS_OPTIONS)
                .onProgress((pos, total, frames) -> w.report(from + (1 - from) * pos / Math.max(1, total)));
        w.session = s;
        if (w.cancelled) s.cancel();
        try {
            if (edits.none()) s.run(file);
            else try (PacketSource src = new EditedSource(CaptureFiles.open(file), edits.ignored(), edits.shift())) {
                s.run(src, file.toString());
            }
        } catch (CancellationException e) {
            done.cancel(false);
            fx(gen, () -> {
                if (loading == w) finishWork(w, index.size() + " frames (analysis cancelled)");     // not by a new edit's run
            });
            return;
        } catch (CaptureException | RuntimeException e) {
            done.cancel(false);
            fx(gen, () -> {
                finishWork(w, index.size() + " frames (analysis failed)");
                error("The analysis of " + file.getFileName() + " failed: " + e.getMessage());
            });
            return;
        }
        fx(gen, () -> {
            live = null;
            if (done != analysisDone) return;        // a later edit started another analysis
            analysis.set(s);
            done.complete(s);
            finishWork(w, index.size() + " frames, " + s.flows().size() + " flows"
                    + (edits.ignored().isEmpty() ? "" : " (" + edits.ignored().cardinality() + " ignored)"));
            if (reanalyzeAfterLoad) {
                reanalyzeAfterLoad = false;
                reanalyze();
            }
        });
        // The user's first filter in a fresh JVM would pay for the JIT: warm its path while they look at the list
        // (and give way to a filter of theirs at once: both would share the same cores).
        FilterWarmUp.run(index, s, () -> gen != generation || filtering != null);
    }

    /**
     * Shows the first {@value #FIRST_SCREEN_FRAMES} frames of a big capture while its whole index is built (about
     * 0.3 s per million frames plus reading the file), so the first screen does not wait for it: a frame index of
     * those frames over a second mapping of the file, replaced by the whole index when that is done (the frame
     * numbers, the selection and the filter stay). Nothing is shown when the first frames cannot be read: the
     * whole build reports why.
     */
    private void showFirstFrames(Path file, int gen, Work w, AnalysisSettings st) {
        PacketSource s;
        try {
            s = CaptureFiles.open(file);
        } catch (CaptureException | RuntimeException e) {
            return;
        }
        int[] read = {0};
        FrameIndex first;
        try {
            first = FrameIndex.build(s, (frames, pos, size) -> read[0] = frames,
                    () -> read[0] >= FIRST_SCREEN_FRAMES || w.cancelled);
        } catch (RuntimeException e) {
            s.close();
            return;
        }
        if (first.size() == 0 || !first.cancelled()) {     // not cancelled: the file is not bigger than that after all
            s.close();
            return;
        }
        FrameDecoder.decodeAs(first, st.rocePorts());
        OpenCapture oc = new OpenCapture(file, s, first, List.of(), false);
        Platform.runLater(() -> {
            if (gen != generation || capture.get() != null) {
                oc.close();
                return;
            }
            firstFrames = oc;
            capture.set(oc);
            view.set(FrameView.all(oc.frames()));
            appliedFilter.set("");
            status.set("Loading " + file.getFileName() + ": the first " + oc.frames() + " frames are shown ...");
        });
    }

    private static String bannerText(OpenCapture oc) {
        if (oc.problems().isEmpty()) return oc.cancelled() ? "Loading was cancelled: only the first " + oc.frames() + " frames are shown" : null;
        CaptureProblem p = oc.problems().getFirst();
        return "The capture is damaged at byte offset " + p.offset() + ": " + p.message() + " (the " + oc.frames()
                + " frames before it are shown)";
    }

    // ------------------------------------------------------------------ live capture

    /**
     * A live capture starts: the open capture closes and the packet list waits for the capture's frames
     * ({@link #showLive}); the display filter stays applied. The Info column and the coloring rules read the
     * verdicts the running analysis has decided so far through monitor.
     */
    void startLive(LiveAnalyzer.Monitor monitor, boolean temporary) {
        String filter = requestedFilter;
        closeCapture();
        requestedFilter = filter;
        analysisDone = new CompletableFuture<>();
        live = monitor;
        liveUnsaved = temporary;     // a temporary file: closing it loses the capture (an output file chosen keeps it)
        commentsChanged();
    }

    /**
     * Changes when the live analysis has judged more of the frames shown (rows decoded before it did show no
     * verdict yet: the packet list decodes its rows again).
     */
    ReadOnlyIntegerProperty liveVerdictsProperty() { return liveVerdicts.getReadOnlyProperty(); }

    void liveVerdictsChanged() { liveVerdicts.set(liveVerdicts.get() + 1); }

    /** True while the packet list shows the frames of the live capture that monitor watches. */
    boolean showsLive(LiveAnalyzer.Monitor monitor) { return live != null && live == monitor; }

    /** The running analysis of the live capture shown, or null (a file, or the live capture's analysis is done). */
    LiveAnalyzer.Monitor live() { return live; }

    /**
     * More frames of the live capture: oc (a new index over the capture file, holding every frame shown so far
     * and more) replaces the capture shown, in one step. Frame numbers, the selection and the scroll position
     * stay; an applied filter runs again over the new frames.
     */
    void showLive(OpenCapture oc) {
        OpenCapture old = capture.get();
        capture.set(oc);
        if (requestedFilter.isEmpty()) view.set(FrameView.all(oc.frames()));
        else if (!needsAnalysis(requestedFilter)) applyFilter(requestedFilter);
        // else: a filter on analysis fields waits for the analysis of the saved capture (it runs when it stops)
        if (old != null) Platform.runLater(old::close);    // after the views let go of it in this pulse
        status.set("Capturing: " + oc.frames() + " frames");
    }

    /**
     * The live capture ended and wrote file: it opens like any file, but the live list stays on screen (its
     * selection, scroll position and filter) until the file's index replaces it, and its verdicts until the
     * file's analysis does.
     */
    void openCaptured(Path file) {
        cancel();
        analysisDone.cancel(false);     // filters that wait for an analysis get the file's
        OpenCapture shown = capture.get();
        if (shown != null && shown != firstFrames) {
            OpenCapture f = firstFrames;
            if (f != null) Platform.runLater(f::close);
            firstFrames = shown;          // replaced by the whole index as a big file's first frames are
        }
        if (shown == null) {
            boolean temporary = liveUnsaved;
            closeCapture();
            liveUnsaved = temporary;     // still the capture's temporary file, or the output file chosen
            commentsChanged();
        }
        load(file);
    }

    /** Completes when the analysis of the open capture is finished; cancelled when it will not be. */
    public CompletableFuture<AnalysisSession> analysisDone() { return analysisDone; }

    // ------------------------------------------------------------------ filtering

    /**
     * Compiles a display filter against the field catalogue (plus the GUI's {@code event} and {@code expert.*}
     * names, see {@link GuiFields}); throws with the column of the problem.
     */
    public static DisplayFilter compile(String text) throws FilterException {
        return DisplayFilter.compile(text, GuiFields.INSTANCE);
    }

    /**
     * Shows only the frames that match a display filter (empty: all frames). The filter runs on background threads
     * (a filter naming {@code analysis.*} fields waits for the analysis); the view is swapped when it is done.
     * Returns the compile error without changing anything when the filter is wrong.
     *
     * @return null when the filter was accepted (it may still be running), else the compile error
     */
    public FilterException applyFilter(String text) {
        DisplayFilter filter;
        try {
            filter = compile(text == null ? "" : text);
        } catch (FilterException e) {
            return e;
        }
        requestedFilter = filter.text();
        OpenCapture c = capture.get();
        Work old = filtering;
        if (old != null) old.cancel();
        if (c == null) {
            appliedFilter.set(filter.text());
            return null;
        }
        if (filter.matchesAll()) {
            setView(FrameView.all(c.frames()), "");
            return null;
        }
        boolean needsAnalysis = needsAnalysis(filter);
        int gen = generation;
        Work w = new Work(this);
        filtering = w;
        busy.set(true);
        progress.set(0);
        status.set("Filtering: " + filter.text());
        CompletableFuture<AnalysisSession> ready = needsAnalysis ? analysisDone : CompletableFuture.completedFuture(analysis.get());
        Thread.ofPlatform().daemon().name("metaroce-gui-filter").start(() -> {
            AnalysisSession s;
            try {
                s = ready.join();
            } catch (CancellationException | java.util.concurrent.CompletionException e) {
                fx(gen, () -> finishWork(w, "Filter not applied: the analysis did not finish"));
                return;
            }
            int[] frames;
            try {
                frames = FrameFilter.run(c.index(), c.index().size(), s, marksForFilters, filter, w::report, () -> w.cancelled);
            } catch (RuntimeException e) {
                // A live capture's older index, closed under a filter that was cancelled for the newer one.
                if (!w.cancelled) throw e;
                frames = null;
            }
            int[] matched = frames;
            fx(gen, () -> {
                if (matched == null || w.cancelled) {
                    finishWork(w, "Filter cancelled");
                    return;
                }
                setView(FrameView.of(matched), filter.text());
                finishWork(w, matched.length + " of " + c.frames() + " frames displayed");
            });
        });
        return null;
    }

    private static boolean needsAnalysis(DisplayFilter filter) {
        for (FilterField f : filter.referencedFields()) if (f.name().startsWith("analysis") || f.name().equals("event")) return true;
        return false;
    }

    private static boolean needsAnalysis(String filter) {
        try {
            return needsAnalysis(compile(filter));
        } catch (FilterException e) {
            return false;
        }
    }

    /**
     * The frames of the open capture that match a filter, computed on the calling thread (call it off the UI
     * thread): for windows that need a subset of frames, e.g. one flow's, without changing the packet list.
     * Waits for the analysis when the filter names analysis fields. Returns an empty array when nothing is open.
     */
    public int[] framesMatching(String filter) throws FilterException {
        DisplayFilter f = compile(filter);
        OpenCapture c = capture.get();
        if (c == null) return new int[0];
        AnalysisSession s;
        try {
            s = analysisDone.join();
        } catch (CancellationException | java.util.concurrent.CompletionException e) {
            s = null;
        }
        int[] r = FrameFilter.run(c.index(), c.index().size(), s, marksForFilters, f, x -> { }, () -> false);
        return r == null ? new int[0] : r;
    }

    private void setView(FrameView v, String filterText) {
        int sel = selectedFrame.get();
        view.set(v);
        appliedFilter.set(filterText);
        if (sel != 0 && v.rowOf(sel) < 0) selectedFrame.set(0);
        reselect();
    }

    /** Selects the frame that was selected before Decode As opened the capture again, if the view shows it. */
    private void reselect() {
        int frame = reselect;
        reselect = 0;
        if (frame != 0) select(frame);
    }

    /** Shows the frames in this order (a sort of the packet list); the selection stays. */
    public void showSorted(FrameView v) {
        view.set(v);
    }

    // ------------------------------------------------------------------ background work

    /** Stops the running load, analysis, filter or save. What was read so far stays; a cancelled save writes nothing. */
    public void cancel() {
        Work w = loading;
        if (w != null) w.cancel();
        Work f = filtering;
        if (f != null) f.cancel();
        Work s = saving;
        if (s != null) s.cancel();
    }

    /**
     * A save starts ({@link BackgroundSave}): the status bar shows message, its progress and Cancel. Null when another
     * save still runs (one at a time, as Wireshark's modal save).
     */
    Work startSaving(String message) {
        if (saving != null) return null;
        Work w = new Work(this);
        saving = w;
        busy.set(true);
        progress.set(0);
        status.set(message);
        return w;
    }

    /** True while a save writes (Close, Open, Reload and Quit wait for it: {@link CaptureSaving#confirm}). */
    boolean isSaving() { return saving != null; }

    /** Closes the open capture (the window closes or another file opens). */
    public void close() {
        cancel();
        closeCapture();
    }

    private void closeCapture() {
        cancel();
        generation++;
        OpenCapture c = capture.get();
        if (c != null) {
            Platform.runLater(c::close);    // after the views let go of it in this pulse
        }
        OpenCapture first = firstFrames;
        firstFrames = null;
        requestedFilter = "";
        reselect = 0;
        redissectGeneration = -1;
        if (first != null && first != c) Platform.runLater(first::close);
        live = null;
        marked.clear();
        timeRefs.clear();
        marks.set(marks.get() + 1);
        ignored.clear();
        timeShift = null;
        reanalyzeAfterLoad = false;
        editsChanged();
        comments.clear();
        liveUnsaved = false;
        commentsChanged();
        capture.set(null);
        analysis.set(null);
        view.set(FrameView.EMPTY);
        selectedFrame.set(0);
        history.clear();
        banner.set(null);
        busy.set(false);
    }

    void finishWork(Work w, String message) {
        if (loading == w) loading = null;
        if (filtering == w) filtering = null;
        if (saving == w) saving = null;
        busy.set(loading != null || filtering != null || saving != null);
        progress.set(busy.get() ? progress.get() : 0);
        status.set(message);
    }

    private void fx(int gen, Runnable r) {
        Platform.runLater(() -> {
            if (gen == generation) r.run();
        });
    }

    /** One background job: its cancel flag and its progress, reported to the UI at most once per pulse. */
    static final class Work {
        private final GuiContext owner;
        volatile boolean cancelled;
        volatile AnalysisSession session;
        private volatile double fraction;
        private boolean queued;

        Work(GuiContext owner) { this.owner = owner; }

        void cancel() {
            cancelled = true;
            AnalysisSession s = session;
            if (s != null) s.cancel();
        }

        /** Called from the worker thread with the fraction done (0..1). */
        void report(double f) {
            fraction = f;
            synchronized (this) {
                if (queued) return;
                queued = true;
            }
            Platform.runLater(() -> {
                synchronized (this) { queued = false; }
                if (owner.loading == this || owner.filtering == this || owner.saving == this) owner.progress.set(fraction);
            });
        }
    }
}
