# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: ip
  title: Internet Protocol version 4
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: Internet Protocol version 4.
doc-ref: 'metaroce-v1.md §1 (v1 draft r2)'
seq:
  - id: version
    type: b4
    doc: Version
  - id: hdr_len
    type: b4
    doc: Header length (32-bit words)
  - id: dscp
    type: b6
    doc: Differentiated Services Codepoint
  - id: ecn
    type: b2
    doc: Explicit Congestion Notification
  - id: len
    type: u2
    doc: Total length (includes the ICRC)
  - id: id
    type: u2
    doc: Identification
  - id: flags_rb
    type: b1
    doc: Reserved bit (reserved, must be 0)
  - id: flags_df
    type: b1
    doc: 'Don''t fragment'
  - id: flags_mf
    type: b1
    doc: More fragments
  - id: frag_offset
    type: b13
    doc: Fragment offset
  - id: ttl
    type: u1
    doc: Time to live
  - id: proto
    type: u1
    doc: Protocol
  - id: checksum
    type: u2
    doc: Header checksum
  - id: src
    type: u4
    doc: Source address
  - id: dst
    type: u4
    doc: Destination address
instances:
  ecn_enum:
    value: ecn
    enum: ecn
enums:
  ecn:
    0x00:
      id: not_ect
      doc: Not-ECT
    0x01:
      id: ect1
      doc: ECT(1)
    0x02:
      id: ect0
      doc: ECT(0)
    0x03:
      id: ce
      doc: CE
