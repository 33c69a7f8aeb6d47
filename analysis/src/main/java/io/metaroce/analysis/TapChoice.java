package io.metaroce.analysis;

import io.metaroce.analysis.AnalysisSettings.Tap;

/** What {@code --tap auto} resolved to, and a sentence saying how (shown in reports). */
public record TapChoice(Tap tap, String how) {}
