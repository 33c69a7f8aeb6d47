package io.metaroce.gui;

import java.util.List;

/** The windows of the Statistics and Graphs menus, in menu order (see {@link GuiContext}: add yours here). */
public final class GuiWindows {
    private GuiWindows() { }

    public static final List<GuiWindow> ALL = List.of(
            new io.metaroce.gui.stats.CapturePropertiesWindow(), new io.metaroce.gui.stats.ResolvedAddressesWindow(),
            new io.metaroce.gui.stats.ExpertInfoWindow(),
            new io.metaroce.gui.stats.DiagnosisWindow(),
            new io.metaroce.gui.stats.ProtocolHierarchyWindow(),
            new io.metaroce.gui.stats.LayerConversationsWindow(),
            new io.metaroce.gui.stats.EndpointsWindow(),
            new io.metaroce.gui.stats.ConversationsWindow(), new io.metaroce.gui.stats.MessagesWindow(), new io.metaroce.gui.graph.FlowGraphWindow(),
            new io.metaroce.gui.graph.PsnGraphWindow(), new io.metaroce.gui.graph.IoGraphWindow(),
            new io.metaroce.gui.graph.PathHeatmapWindow(), io.metaroce.gui.stats.DiagnosisWindow.lossTimeline(),
            new io.metaroce.gui.graph.CongestionLoopWindow());
}
