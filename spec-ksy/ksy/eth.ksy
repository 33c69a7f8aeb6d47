# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: eth
  title: Ethernet II
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: Ethernet II.
doc-ref: 'metaroce-v1.md §1 (v1 draft r2)'
seq:
  - id: dst
    type: b48
    doc: Destination
  - id: src
    type: b48
    doc: Source
  - id: type
    type: u2
    doc: Type
instances:
  type_enum:
    value: type
    enum: ether_type
enums:
  ether_type:
    0x800:
      id: ipv4
      doc: IPv4
    0x86DD:
      id: ipv6
      doc: IPv6
    0x8100:
      id: vlan
      doc: '802.1Q VLAN'
    0x88A8:
      id: qinq
      doc: '802.1ad QinQ'
    0x9100:
      id: qinq_old
      doc: '802.1QinQ (legacy 0x9100)'
    0x8915:
      id: roce_v1
      doc: RoCEv1
    0x8808:
      id: mac_control
      doc: MAC Control
