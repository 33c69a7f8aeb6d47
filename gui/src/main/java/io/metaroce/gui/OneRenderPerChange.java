package io.metaroce.gui;

import javafx.beans.Observable;
import javafx.scene.Scene;

/**
 * Keeps a change to the window to one render. Cells a VirtualFlow creates or updates during the layout pass (a
 * jump in the packet list, a new frame's field tree, a filter's new rows) invalidate CSS after that pulse's CSS
 * pass; JavaFX then runs a second pulse for the CSS alone, and that pulse finds nothing dirty in the render graph,
 * which Prism's painter takes as "paint everything" (ViewPainter: no dirty regions, whole scene). In software
 * rendering (Xvfb, remote desktops, VMs) that is a second full-window render per jump: 60-75 ms on the 2-core
 * machine. Applying the CSS left over right after the layout keeps it in the same pulse, so the second pulse never
 * comes. Only after one of the given changes: other pulses (a progress bar, a caret) pay one boolean test.
 * (It once seemed to stop the live packet list from following its new rows; that was PacketTable's follow losing
 * a race this only made likelier, fixed there: LiveFollowTest.)
 */
public final class OneRenderPerChange {
    private boolean armed;

    private OneRenderPerChange() { }

    /** Installs the post-layout CSS step on a scene, armed by each change of the triggers; returns the scene. */
    public static Scene install(Scene scene, Observable... triggers) {
        OneRenderPerChange o = new OneRenderPerChange();
        for (Observable t : triggers) t.addListener(x -> o.armed = true);
        scene.addPostLayoutPulseListener(() -> {
            if (!o.armed || scene.getRoot() == null) return;
            o.armed = false;
            // On the root: clears the root's CSS mark that asks for the next pulse, and updates the whole scene graph's
            // CSS (nodes left unchanged cost little; far less than the software render it saves).
            scene.getRoot().applyCss();
        });
        return scene;
    }
}
