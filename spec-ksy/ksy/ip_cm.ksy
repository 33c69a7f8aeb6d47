# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: ip_cm
  title: RDMA IP CM private-data header (IBTA Annex A11)
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: First 36 bytes of the REQ private data.
doc-ref: 'metaroce-v1.md §4.1 (v1 draft r2)'
seq:
  - id: major_version
    type: b4
    doc: Major version
  - id: minor_version
    type: b4
    doc: Minor version
  - id: ip_version
    type: b4
    doc: IP version
  - id: resv4
    type: b4
    doc: Reserved (reserved, must be 0)
  - id: src_port
    type: u2
    doc: Source port
  - id: src_ip
    size: 16
    doc: 'Source IP (IPv4 as ::ffff:a.b.c.d)'
  - id: dst_ip
    size: 16
    doc: 'Destination IP (IPv4 as ::ffff:a.b.c.d)'
