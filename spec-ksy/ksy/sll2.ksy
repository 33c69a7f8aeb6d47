# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: sll2
  title: Linux cooked capture v2
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: Linux cooked capture v2.
doc-ref: 'metaroce-v1.md §1 (v1 draft r2)'
seq:
  - id: etype
    type: u2
    doc: Protocol
  - id: reserved
    type: u2
    doc: Reserved (reserved, must be 0)
  - id: ifindex
    type: u4
    doc: Interface index
  - id: hatype
    type: u2
    doc: Link-layer address type
  - id: pkttype
    type: u1
    doc: Packet type
  - id: halen
    type: u1
    doc: Link-layer address length
  - id: src_addr
    type: u8
    doc: Source address (first halen bytes)
instances:
  etype_enum:
    value: etype
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
