# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: roce_frame
  title: RoCEv2 / MetaRoCE frame from Ethernet to ICRC
  license: CC0-1.0
  ks-version: '0.11'
  imports:
    - eth
    - vlan
    - ip
    - ipv6
    - udp
    - grh
    - roce_transport
    - macc
    - macc_pause
    - macc_cbfc
    - macc_cbfc_times
  endian: be
  bit-endian: be
doc: |
  Ethernet II, 802.1Q/802.1ad tags, IPv4 (with options) or IPv6 (without extension headers), UDP, then
  the transport packet; or RoCEv1 (EtherType 0x8915, GRH); or MAC Control (EtherType 0x8808: PAUSE,
  PFC). The Ethernet FCS, when captured, follows the UDP datagram and is not parsed.
doc-ref: 'metaroce-v1.md §1 (v1 draft r2)'
seq:
  - id: eth
    type: eth
  - id: vlans
    type: vlan
    repeat: until
    repeat-until: '_.etype != 0x8100 and _.etype != 0x88A8 and _.etype != 0x9100'
    if: eth.type == 0x8100 or eth.type == 0x88A8 or eth.type == 0x9100
  - id: ip
    type: ip
    if: ether_type == 0x0800
  - id: ip_options
    size: ip.hdr_len * 4 - 20
    if: ether_type == 0x0800
  - id: ipv6
    type: ipv6
    if: ether_type == 0x86DD
  - id: grh
    type: grh
    if: ether_type == 0x8915
  - id: udp
    type: udp
    if: ether_type == 0x0800 or ether_type == 0x86DD
  - id: udp_transport
    size: udp.length - 8
    type: roce_transport
    if: ether_type == 0x0800 or ether_type == 0x86DD
  - id: grh_transport
    size-eos: true
    type: roce_transport
    if: ether_type == 0x8915
  - id: macc
    type: macc
    if: ether_type == 0x8808
  - id: macc_pause
    type: macc_pause
    if: ether_type == 0x8808 and macc.opcode == 0x0001
  - id: macc_cbfc
    type: macc_cbfc
    if: ether_type == 0x8808 and macc.opcode == 0x0101
  - id: macc_cbfc_times
    type: macc_cbfc_times
    if: ether_type == 0x8808 and macc.opcode == 0x0101
instances:
  has_vlan:
    value: eth.type == 0x8100 or eth.type == 0x88A8 or eth.type == 0x9100
  ether_type:
    value: 'has_vlan ? vlans.last.etype : eth.type'
    doc: EtherType after the last VLAN tag.
