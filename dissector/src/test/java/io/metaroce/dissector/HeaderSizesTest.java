package io.metaroce.dissector;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaroce.protocol.Spec;
import org.junit.jupiter.api.Test;

/**
 * The generator's plain array of header sizes (read per frame by the decoder's short cut and validate's) holds every
 * header's catalogue size, in header order: a header added, removed or resized in the spec changes both.
 */
class HeaderSizesTest {
    @Test
    void headerSizesAreTheCataloguesSizesByIndex() {
        assertEquals(Spec.HEADERS.size(), Spec.HEADER_SIZES.length);
        for (int h = 0; h < Spec.HEADERS.size(); h++) {
            assertEquals(h, Spec.HEADERS.get(h).index());
            assertEquals(Spec.HEADERS.get(h).size(), Spec.HEADER_SIZES[h], Spec.HEADERS.get(h).id());
        }
    }
}
