package io.metaroce.samples;

/** Something that receives packets addressed to one QP number of a host. */
interface Endpoint {
    void receive(Pkt p);
}
