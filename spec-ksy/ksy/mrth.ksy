# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: mrth
  title: MetaRoCE Transport Header
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: 'Present iff BTH.tver == 1. spray and the credit mode are constant for a QP direction.'
doc-ref: 'metaroce-v1.md §3 (v1 draft r2)'
seq:
  - id: version
    type: b4
    doc: 'MRTH version: must be 1'
  - id: resv4
    type: b4
    doc: Reserved (reserved, must be 0)
  - id: rtx
    type: b1
    doc: Retransmission
  - id: spray
    type: b1
    doc: Sprayed over several paths
  - id: sack_req
    type: b1
    doc: Immediate MR-SACK requested
  - id: ts_valid
    type: b1
    doc: tx_timestamp valid
  - id: resv_flags
    type: b4
    doc: Reserved flags (reserved, must be 0)
  - id: path_id
    type: u2
    doc: 'Path ID: 0..1023; UDP source port = base_port + path_id (§4)'
  - id: msg_id
    type: u4
    doc: 'Message number (§9.3)'
  - id: msg_offset
    type: u4
    doc: Byte offset of this payload in its message
  - id: tx_timestamp
    type: u4
    doc: 'Sender clock (ns mod 2^32)'
