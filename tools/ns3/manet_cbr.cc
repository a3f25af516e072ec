// sctpsim reference runs: the classic MANET CBR scenario (Broch et al. 1998) in ns-3 3.44,
// set up to match scenarios/examples/manet-cbr.toml as closely as ns-3 allows.
//
// 50 nodes, random waypoint (no initial pause, constant pause, speed U[0, max]) in a
// 1500 m x 300 m field, ns-2 WaveLAN-like 802.11b radio (two-ray ground at 914 MHz, 250 m
// reception, 550 m carrier sense, RTS/CTS before every unicast, 50-packet interface queue),
// AODV, OLSR or DSDV, `sources` CBR/UDP flows of 4 x 64-byte packets per second.
//
// One run per invocation; appends one CSV row (header written when the file is new/empty).
// With --diagCsv=PATH it also appends one row of loss and control-traffic diagnostics there
// (see Diag below); the main row is the same with or without it.
// Build and grid driver: run_manet.py next to this file.

#include "ns3/aodv-module.h"
#include "ns3/dsdv-module.h"
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mobility-module.h"
#include "ns3/network-module.h"
#include "ns3/olsr-module.h"
#include "ns3/traffic-control-module.h"
#include "ns3/wifi-module.h"

#include "ns2_wavelan.h"

#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <unordered_map>
#include <vector>

using namespace ns3;

namespace
{

struct Counters
{
    uint64_t dataSent = 0;
    uint64_t dataRecv = 0;
    uint64_t dataDup = 0;
    double delaySum = 0.0;
    uint64_t routingPkts = 0;
    uint64_t routingBytes = 0;
    uint16_t routingPort = 0;
    std::unordered_map<uint64_t, double> sendTime; // packet uid -> send time (s)
};

Counters g;

// Diagnostics (--verbose): longest distance over which a frame was received.
std::map<Mac48Address, Ptr<Node>> g_macToNode;
double g_maxRxDist = 0.0;
uint64_t g_rxFrames = 0;

void
OnPhyRxEnd(std::string context, Ptr<const Packet> p)
{
    // context: /NodeList/<id>/DeviceList/...
    uint32_t id = std::stoul(context.substr(10, context.find('/', 10) - 10));
    WifiMacHeader hdr;
    if (p->PeekHeader(hdr) == 0 || !(hdr.IsData() || hdr.IsRts()))
    {
        return;
    }
    auto it = g_macToNode.find(hdr.GetAddr2());
    if (it == g_macToNode.end())
    {
        return;
    }
    Ptr<MobilityModel> a = NodeList::GetNode(id)->GetObject<MobilityModel>();
    Ptr<MobilityModel> b = it->second->GetObject<MobilityModel>();
    g_rxFrames++;
    g_maxRxDist = std::max(g_maxRxDist, a->GetDistanceFrom(b));
}

void
OnAppTx(Ptr<const Packet> p)
{
    g.dataSent++;
    g.sendTime[p->GetUid()] = Simulator::Now().GetSeconds();
}

void
OnAppRx(Ptr<const Packet> p)
{
    auto it = g.sendTime.find(p->GetUid());
    if (it == g.sendTime.end())
    {
        g.dataDup++; // already counted (duplicate) or unknown
        return;
    }
    g.dataRecv++;
    g.delaySum += Simulator::Now().GetSeconds() - it->second;
    g.sendTime.erase(it);
}

// --- diagnostics (--diagCsv) ----------------------------------------------------------------
//
// Written to explain where the ns-3 runs lose packets and why they send as much routing
// traffic as they do: which MAC drops happen (ns-3's AODV treats every DroppedMpdu of a
// neighbour's unicast frame as a link break, whatever its reason), which AODV messages are
// sent, and which IP-layer drops occur (TTL expiry = forwarding loops; "route error" = AODV's
// request queue gave up on a packet).

/// Traffic class of a packet, from its IPv4 protocol and UDP destination port.
enum PktClass
{
    CLS_DATA = 0, ///< CBR application packet (UDP to one of the flow ports)
    CLS_ROUTING,  ///< UDP to the routing protocol's port (654 AODV, 698 OLSR, 269 DSDV)
    CLS_OTHER,    ///< anything else (e.g. ICMP time-exceeded)
    CLS_N
};

const char* const kClassName[CLS_N] = {"data", "routing", "other"};

/// WifiMacDropReason values, in ns-3 3.44's enum order (wifi-mac.h).
const char* const kMacDropName[] = {"failed_enqueue",
                                    "expired_lifetime",
                                    "reached_retry_limit",
                                    "qos_old_packet"};
constexpr int kMacDropN = 4;

/// Ipv4L3Protocol::DropReason values 1..7, in ns-3 3.44's enum order (ipv4-l3-protocol.h).
const char* const kIpDropName[] = {"ttl_expired",
                                   "no_route",
                                   "bad_checksum",
                                   "interface_down",
                                   "route_error",
                                   "fragment_timeout",
                                   "duplicate"};
constexpr int kIpDropN = 7;

struct Diag
{
    uint16_t dataPortLo = 0; ///< flow ports are [dataPortLo, dataPortHi)
    uint16_t dataPortHi = 0;
    /// DroppedMpdu of the Wi-Fi MAC, summed over nodes: [reason][class].
    uint64_t macDrop[kMacDropN][CLS_N] = {};
    /// Unicast frames among macDrop (only these can match an AODV neighbour): [reason].
    uint64_t macDropUnicast[kMacDropN] = {};
    /// AODV transmissions by message type (index = type byte; 0 = unknown), counted where
    /// routing_packets is counted. RREPs to a broadcast address are hellos (kept apart).
    uint64_t aodvType[5] = {};
    uint64_t aodvHello = 0;
    uint64_t aodvRreqOriginated = 0; ///< RREQs sent by their originator (new discoveries/retries)
    uint64_t olsrPkts = 0;
    /// OLSR messages transmitted by type (0 other, 1 HELLO, 2 TC), their bytes (message
    /// headers included) and the TCs among them that this node forwarded (originator not us).
    uint64_t olsrMsgs[3] = {};
    uint64_t olsrMsgBytes[3] = {};
    uint64_t olsrTcForwarded = 0;
    /// DSDV updates by number of 12-byte entries: [0] 1, [1] 2, [2] 3, [3] 4-9, [4] 10 or more
    /// (a triggered update carries its own entry and the changes; a full dump every route),
    /// and the entries of all of them.
    uint64_t dsdvByEntries[5] = {};
    uint64_t dsdvEntries = 0;
    /// Routing packets received (Ipv4L3Protocol Rx, UDP to the routing port), all nodes.
    uint64_t routingRx = 0;
    /// Ipv4L3Protocol Drop trace: [reason - 1][class].
    uint64_t ipDrop[kIpDropN][CLS_N] = {};
};

Diag d;

PktClass
ClassOfUdp(uint16_t dstPort)
{
    if (dstPort == g.routingPort)
    {
        return CLS_ROUTING;
    }
    if (dstPort >= d.dataPortLo && dstPort < d.dataPortHi)
    {
        return CLS_DATA;
    }
    return CLS_OTHER;
}

/// Class of an IP payload (UDP header first if protocol is UDP).
PktClass
ClassOfIpPayload(const Ipv4Header& ip, Ptr<const Packet> payload)
{
    if (ip.GetProtocol() != UdpL4Protocol::PROT_NUMBER || payload->GetSize() < 8)
    {
        return CLS_OTHER;
    }
    UdpHeader udp;
    payload->PeekHeader(udp);
    return ClassOfUdp(udp.GetDestinationPort());
}

void
OnMacDrop(WifiMacDropReason reason, Ptr<const WifiMpdu> mpdu)
{
    int r = static_cast<int>(reason);
    if (r < 0 || r >= kMacDropN)
    {
        return;
    }
    PktClass cls = CLS_OTHER;
    Ptr<Packet> c = mpdu->GetPacket()->Copy(); // MSDU: LLC/SNAP + IPv4 + ...
    LlcSnapHeader llc;
    if (c->GetSize() >= llc.GetSerializedSize())
    {
        c->RemoveHeader(llc);
        if (llc.GetType() == Ipv4L3Protocol::PROT_NUMBER)
        {
            Ipv4Header ip;
            c->RemoveHeader(ip);
            cls = ClassOfIpPayload(ip, c);
        }
    }
    d.macDrop[r][cls]++;
    if (!mpdu->GetHeader().GetAddr1().IsGroup())
    {
        d.macDropUnicast[r]++;
    }
}

// Ipv4L3Protocol "Rx": every IPv4 packet a node's interface received, header on.
void
OnIpRx(Ptr<const Packet> p, Ptr<Ipv4>, uint32_t iface)
{
    if (iface == 0)
    {
        return;
    }
    Ptr<Packet> c = p->Copy();
    Ipv4Header ip;
    c->RemoveHeader(ip);
    if (ip.GetProtocol() != UdpL4Protocol::PROT_NUMBER)
    {
        return;
    }
    UdpHeader udp;
    c->PeekHeader(udp);
    if (udp.GetDestinationPort() == g.routingPort)
    {
        d.routingRx++;
    }
}

void
OnIpDrop(const Ipv4Header& ip,
         Ptr<const Packet> p,
         Ipv4L3Protocol::DropReason reason,
         Ptr<Ipv4>,
         uint32_t)
{
    int r = static_cast<int>(reason) - 1;
    if (r < 0 || r >= kIpDropN)
    {
        return;
    }
    d.ipDrop[r][ClassOfIpPayload(ip, p)]++; // the packet comes without its IP header
}

/// Counts the messages of one transmitted OLSR packet; `c` starts at the OLSR packet header.
void
CountOlsrMessages(Ptr<Packet> c, Ipv4Address me)
{
    d.olsrPkts++;
    // OLSR packet (RFC 3626 §3.3): length (2), sequence (2), then messages, each: type (1),
    // vtime (1), size (2, whole message), originator (4), TTL, hop count, sequence (2).
    std::vector<uint8_t> buf(c->GetSize());
    c->CopyData(buf.data(), buf.size());
    size_t off = 4;
    while (off + 12 <= buf.size())
    {
        uint8_t type = buf[off];
        size_t size = (size_t(buf[off + 2]) << 8) | buf[off + 3];
        if (size < 12 || off + size > buf.size())
        {
            break;
        }
        int t = type == 1 || type == 2 ? type : 0;
        d.olsrMsgs[t]++;
        d.olsrMsgBytes[t] += size;
        if (t == 2 && Ipv4Address::Deserialize(&buf[off + 4]) != me)
        {
            d.olsrTcForwarded++;
        }
        off += size;
    }
}

/// Called from OnIpTx for each routing transmission; `c` starts at the UDP header.
void
CountRoutingMessage(const Ipv4Header& ip, Ptr<Packet> c, Ptr<Ipv4> ipv4, uint32_t iface)
{
    UdpHeader udp;
    c->RemoveHeader(udp);
    if (g.routingPort == 698)
    {
        CountOlsrMessages(c, ipv4->GetAddress(iface, 0).GetLocal());
        return;
    }
    if (g.routingPort == 269)
    {
        // DSDV: the payload is a list of 12-byte entries (dsdv-packet.cc), no message type.
        uint32_t n = c->GetSize() / 12;
        d.dsdvEntries += n;
        d.dsdvByEntries[n <= 1 ? 0 : n == 2 ? 1 : n == 3 ? 2 : n < 10 ? 3 : 4]++;
        return;
    }
    // AODV message: 1-byte type (1 RREQ, 2 RREP, 3 RERR, 4 RREP-ACK), then the body.
    uint8_t buf[20] = {};
    uint32_t n = c->CopyData(buf, sizeof(buf));
    uint8_t type = n > 0 && buf[0] <= 4 ? buf[0] : 0;
    if (type == 2 && (ip.GetDestination().IsBroadcast() ||
                      ip.GetDestination() == ipv4->GetAddress(iface, 0).GetBroadcast()))
    {
        d.aodvHello++; // a hello is an RREP broadcast with TTL 1
        return;
    }
    d.aodvType[type]++;
    // RREQ body: flags, reserved, hop count (1 byte each), RREQ ID (4), destination (4),
    // destination seqno (4), originator (4): the originator starts at byte 16 after the type.
    if (type == 1 && n >= 20)
    {
        Ipv4Address origin = Ipv4Address::Deserialize(buf + 16);
        if (origin == ipv4->GetAddress(iface, 0).GetLocal())
        {
            d.aodvRreqOriginated++;
        }
    }
}

// Ipv4L3Protocol "Tx": every IPv4 packet handed to an interface (origin or forward), header on.
void
OnIpTx(Ptr<const Packet> p, Ptr<Ipv4> ipv4, uint32_t iface)
{
    if (iface == 0)
    {
        return; // loopback (AODV's deferred-route trick); never routing traffic
    }
    Ptr<Packet> c = p->Copy();
    Ipv4Header ip;
    c->RemoveHeader(ip);
    if (ip.GetProtocol() != UdpL4Protocol::PROT_NUMBER)
    {
        return;
    }
    UdpHeader udp;
    c->PeekHeader(udp);
    if (udp.GetDestinationPort() == g.routingPort)
    {
        g.routingPkts++;
        g.routingBytes += p->GetSize();
        CountRoutingMessage(ip, c, ipv4, iface);
    }
}

/// True if `path` is missing or empty (so a header line is due).
bool
NeedsHeader(const std::string& path)
{
    std::ifstream in(path);
    return !(in.good() && in.peek() != std::ifstream::traits_type::eof());
}

/// Appends the diagnostics row (header first if the file is new). Keyed like the main CSV.
void
WriteDiagRow(const std::string& path,
             const std::string& proto,
             uint32_t sources,
             double pause,
             uint32_t run,
             double duration)
{
    std::ostringstream head;
    std::ostringstream row;
    head << "protocol,sources,pause_s,run,duration_s";
    row << proto << "," << sources << "," << pause << "," << run << "," << duration;
    uint64_t dataLost = 0; // data packets whose loss has a recorded cause
    for (int r = 0; r < kMacDropN; ++r)
    {
        for (int c = 0; c < CLS_N; ++c)
        {
            head << ",mac_drop_" << kMacDropName[r] << "_" << kClassName[c];
            row << "," << d.macDrop[r][c];
        }
        head << ",mac_drop_" << kMacDropName[r] << "_unicast";
        row << "," << d.macDropUnicast[r];
        dataLost += d.macDrop[r][CLS_DATA];
    }
    const char* const aodvName[] = {"unknown", "rreq", "rrep", "rerr", "rrep_ack"};
    for (int t = 1; t <= 4; ++t)
    {
        head << ",aodv_" << aodvName[t];
        row << "," << d.aodvType[t];
    }
    head << ",aodv_rreq_originated,aodv_hello,aodv_unknown,olsr_packets";
    row << "," << d.aodvRreqOriginated << "," << d.aodvHello << "," << d.aodvType[0] << ","
        << d.olsrPkts;
    for (int r = 0; r < kIpDropN; ++r)
    {
        for (int c = 0; c < CLS_N; ++c)
        {
            head << ",ip_drop_" << kIpDropName[r] << "_" << kClassName[c];
            row << "," << d.ipDrop[r][c];
        }
        dataLost += d.ipDrop[r][CLS_DATA];
    }
    // Sent but neither received nor dropped with a traced cause: still queued or in flight at
    // the end, or lost without a trace (e.g. discarded by a node's UDP layer).
    uint64_t accounted = g.dataRecv + dataLost;
    head << ",data_sent,data_received,data_unaccounted";
    row << "," << g.dataSent << "," << g.dataRecv << ","
        << static_cast<int64_t>(g.dataSent) - static_cast<int64_t>(accounted);
    // Appended last so that rows written before these columns existed keep their layout.
    head << ",olsr_hello_msgs,olsr_tc_msgs,olsr_other_msgs,olsr_hello_msg_bytes"
            ",olsr_tc_msg_bytes,olsr_tc_forwarded";
    row << "," << d.olsrMsgs[1] << "," << d.olsrMsgs[2] << "," << d.olsrMsgs[0] << ","
        << d.olsrMsgBytes[1] << "," << d.olsrMsgBytes[2] << "," << d.olsrTcForwarded;
    head << ",dsdv_updates_1,dsdv_updates_2,dsdv_updates_3,dsdv_updates_4_9,dsdv_updates_10plus"
            ",dsdv_entries";
    for (int k = 0; k < 5; ++k)
    {
        row << "," << d.dsdvByEntries[k];
    }
    row << "," << d.dsdvEntries;
    head << ",routing_rx";
    row << "," << d.routingRx;

    bool header = NeedsHeader(path);
    std::ofstream out(path, std::ios::app);
    if (header)
    {
        out << head.str() << "\n";
    }
    out << row.str() << "\n";
}

// Random waypoint as in ns-2 setdest and sctpsim's model: trips start at t = 0 (ns-3's own
// RandomWaypointMobilityModel begins with a pause), constant pause at each destination,
// speed uniform in [minSpeed, maxSpeed].
void
InstallWaypoints(NodeContainer& nodes,
                 double fieldX,
                 double fieldY,
                 double minSpeed,
                 double maxSpeed,
                 double pause,
                 double duration)
{
    Ptr<UniformRandomVariable> ux = CreateObject<UniformRandomVariable>();
    Ptr<UniformRandomVariable> uy = CreateObject<UniformRandomVariable>();
    Ptr<UniformRandomVariable> us = CreateObject<UniformRandomVariable>();
    ux->SetAttribute("Min", DoubleValue(0.0));
    ux->SetAttribute("Max", DoubleValue(fieldX));
    uy->SetAttribute("Min", DoubleValue(0.0));
    uy->SetAttribute("Max", DoubleValue(fieldY));
    us->SetAttribute("Min", DoubleValue(minSpeed));
    us->SetAttribute("Max", DoubleValue(maxSpeed));
    // Fixed stream numbers so that the mobility draws do not depend on the routing protocol.
    ux->SetStream(1000);
    uy->SetStream(1001);
    us->SetStream(1002);

    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        Ptr<WaypointMobilityModel> m = CreateObject<WaypointMobilityModel>();
        m->SetAttribute("InitialPositionIsWaypoint", BooleanValue(false));
        nodes.Get(i)->AggregateObject(m);
        Vector pos(ux->GetValue(), uy->GetValue(), 0.0);
        double t = 0.0;
        m->AddWaypoint(Waypoint(Seconds(0.0), pos));
        while (t < duration)
        {
            Vector dst(ux->GetValue(), uy->GetValue(), 0.0);
            double v = us->GetValue();
            double d = CalculateDistance(pos, dst);
            if (v < 1e-9)
            {
                break; // (practically never) stand still for the rest of the run
            }
            t += d / v;
            m->AddWaypoint(Waypoint(Seconds(t), dst));
            pos = dst;
            if (t >= duration)
            {
                break;
            }
            if (pause > 0)
            {
                t += pause;
                m->AddWaypoint(Waypoint(Seconds(t), pos));
            }
        }
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string protocol = "aodv";
    uint32_t sources = 10;
    double pause = 0.0;
    uint32_t run = 1;
    uint32_t seed = 1;
    double duration = 900.0;
    bool hello = false;
    std::string csv = "ns3-manet-cbr.csv";
    uint32_t nNodes = 50;
    double maxSpeed = 20.0;
    double startSpread = 180.0;
    bool ns3Rwp = false;
    bool verbose = false;
    std::string diagCsv;

    CommandLine cmd(__FILE__);
    cmd.AddValue("protocol", "aodv, olsr or dsdv", protocol);
    cmd.AddValue("sources", "number of CBR sources (distinct source nodes)", sources);
    cmd.AddValue("pause", "random-waypoint pause time (s)", pause);
    cmd.AddValue("run", "RngSeedManager run number", run);
    cmd.AddValue("seed", "RngSeedManager seed", seed);
    cmd.AddValue("duration", "simulated time (s)", duration);
    cmd.AddValue("hello", "AODV hello messages (ns-3 default true; sctpsim comparison false)", hello);
    cmd.AddValue("csv", "CSV file to append one row to", csv);
    cmd.AddValue("nodes", "number of nodes", nNodes);
    cmd.AddValue("maxSpeed", "maximum speed (m/s)", maxSpeed);
    cmd.AddValue("startSpread", "flow start times uniform in [0, startSpread) s", startSpread);
    cmd.AddValue("ns3Rwp", "use ns-3's RandomWaypointMobilityModel (initial pause) instead", ns3Rwp);
    cmd.AddValue("verbose", "print set-up diagnostics", verbose);
    cmd.AddValue("diagCsv", "also append a row of drop/control-message counts to this CSV", diagCsv);
    cmd.Parse(argc, argv);

    if (protocol != "aodv" && protocol != "olsr" && protocol != "dsdv")
    {
        std::cerr << "protocol must be aodv, olsr or dsdv\n";
        return 2;
    }
    auto wall0 = std::chrono::steady_clock::now();

    RngSeedManager::SetSeed(seed);
    RngSeedManager::SetRun(run);

    // --- ns-2 WaveLAN (Lucent 914 MHz) radio, 50-packet interface queue (ns2_wavelan.h) ----
    sctpsim_ns3::SetNs2IfqDefaults();

    NodeContainer nodes;
    nodes.Create(nNodes);
    NetDeviceContainer devices = sctpsim_ns3::InstallNs2WaveLan(nodes);

    // --- mobility ---------------------------------------------------------------------------
    if (ns3Rwp)
    {
        MobilityHelper mob;
        ObjectFactory pos;
        pos.SetTypeId("ns3::RandomRectanglePositionAllocator");
        pos.Set("X", StringValue("ns3::UniformRandomVariable[Min=0.0|Max=1500.0]"));
        pos.Set("Y", StringValue("ns3::UniformRandomVariable[Min=0.0|Max=300.0]"));
        Ptr<PositionAllocator> alloc = pos.Create()->GetObject<PositionAllocator>();
        std::ostringstream speed, pz;
        speed << "ns3::UniformRandomVariable[Min=0.0|Max=" << maxSpeed << "]";
        pz << "ns3::ConstantRandomVariable[Constant=" << pause << "]";
        mob.SetMobilityModel("ns3::RandomWaypointMobilityModel",
                             "Speed", StringValue(speed.str()),
                             "Pause", StringValue(pz.str()),
                             "PositionAllocator", PointerValue(alloc));
        mob.SetPositionAllocator(alloc);
        mob.Install(nodes);
    }
    else
    {
        InstallWaypoints(nodes, 1500.0, 300.0, 0.0, maxSpeed, pause, duration);
    }

    // --- routing and IP ---------------------------------------------------------------------
    AodvHelper aodv;
    OlsrHelper olsr;
    // ns-3's DSDV with its default attributes (PeriodicUpdateInterval 15 s, SettlingTime 5 s,
    // EnableWST, EnableBuffering, ...): dsdv-routing-protocol.cc GetTypeId.
    DsdvHelper dsdv;
    InternetStackHelper internet;
    if (protocol == "aodv")
    {
        aodv.Set("EnableHello", BooleanValue(hello));
        internet.SetRoutingHelper(aodv);
        g.routingPort = 654;
    }
    else if (protocol == "dsdv")
    {
        internet.SetRoutingHelper(dsdv);
        g.routingPort = 269; // dsdv-routing-protocol.cc DSDV_PORT
    }
    else
    {
        internet.SetRoutingHelper(olsr);
        g.routingPort = 698;
    }
    internet.Install(nodes);

    Ipv4AddressHelper addr;
    addr.SetBase("10.1.0.0", "255.255.0.0");
    Ipv4InterfaceContainer ifs = addr.Assign(devices);
    // Only the 50-packet MAC queue (ns-2's single IFQ); no ARP (permanent entries).
    sctpsim_ns3::RemoveQueueDiscs(devices);
    sctpsim_ns3::FillPermanentArp(nodes, devices, ifs);

    // Routing-protocol random streams after the fixed mobility streams.
    if (protocol == "aodv")
    {
        aodv.AssignStreams(nodes, 2000);
    }
    else if (protocol == "dsdv")
    {
        // DsdvHelper has no AssignStreams: one stream per node's protocol (its only random
        // variable, the update jitter), numbered from 2000 as the other protocols'.
        for (uint32_t i = 0; i < nodes.GetN(); ++i)
        {
            Ptr<Ipv4> ip = nodes.Get(i)->GetObject<Ipv4>();
            Ptr<dsdv::RoutingProtocol> rp =
                DynamicCast<dsdv::RoutingProtocol>(ip->GetRoutingProtocol());
            NS_ABORT_MSG_UNLESS(rp, "DSDV is not the node's routing protocol");
            rp->AssignStreams(2000 + i);
        }
    }
    else
    {
        olsr.AssignStreams(nodes, 2000);
    }

    // --- traffic: `sources` random pairs ---------------------------------------------------
    Ptr<UniformRandomVariable> pick = CreateObject<UniformRandomVariable>();
    pick->SetStream(3000);
    Ptr<UniformRandomVariable> start = CreateObject<UniformRandomVariable>();
    start->SetStream(3001);
    std::vector<uint32_t> perm(nNodes);
    for (uint32_t i = 0; i < nNodes; ++i)
    {
        perm[i] = i;
    }
    // partial Fisher-Yates: the first `sources` entries are distinct random source nodes
    for (uint32_t i = 0; i < sources && i < nNodes; ++i)
    {
        uint32_t j = i + pick->GetInteger(0, nNodes - 1 - i);
        std::swap(perm[i], perm[j]);
    }
    for (uint32_t f = 0; f < sources; ++f)
    {
        uint32_t src = perm[f];
        uint32_t dst = pick->GetInteger(0, nNodes - 2);
        if (dst >= src)
        {
            dst++;
        }
        uint16_t port = 9000 + f;
        UdpServerHelper server(port);
        ApplicationContainer sa = server.Install(nodes.Get(dst));
        sa.Start(Seconds(0.0));
        sa.Stop(Seconds(duration));
        sa.Get(0)->TraceConnectWithoutContext("Rx", MakeCallback(&OnAppRx));

        UdpClientHelper client(ifs.GetAddress(dst), port);
        client.SetAttribute("MaxPackets", UintegerValue(0));
        client.SetAttribute("Interval", TimeValue(Seconds(0.25)));
        client.SetAttribute("PacketSize", UintegerValue(64));
        ApplicationContainer ca = client.Install(nodes.Get(src));
        double t0 = start->GetValue(0.0, startSpread);
        ca.Start(Seconds(t0));
        ca.Stop(Seconds(duration));
        ca.Get(0)->TraceConnectWithoutContext("Tx", MakeCallback(&OnAppTx));
        if (verbose)
        {
            std::cerr << "flow " << f << ": " << src << " -> " << dst << " start " << t0 << "\n";
        }
    }

    Config::ConnectWithoutContext("/NodeList/*/$ns3::Ipv4L3Protocol/Tx", MakeCallback(&OnIpTx));
    d.dataPortLo = 9000;
    d.dataPortHi = 9000 + sources;
    if (!diagCsv.empty())
    {
        Config::ConnectWithoutContext("/NodeList/*/DeviceList/*/$ns3::WifiNetDevice/Mac/DroppedMpdu",
                                      MakeCallback(&OnMacDrop));
        Config::ConnectWithoutContext("/NodeList/*/$ns3::Ipv4L3Protocol/Drop",
                                      MakeCallback(&OnIpDrop));
        Config::ConnectWithoutContext("/NodeList/*/$ns3::Ipv4L3Protocol/Rx",
                                      MakeCallback(&OnIpRx));
    }

    if (verbose)
    {
        Ptr<WifiNetDevice> wd = DynamicCast<WifiNetDevice>(devices.Get(0));
        Ptr<WifiRemoteStationManager> rsm = wd->GetRemoteStationManager();
        std::cerr << "tx " << sctpsim_ns3::DbmFromWatts(sctpsim_ns3::kTxPowerW) << " dBm, rxSens "
                  << sctpsim_ns3::DbmFromWatts(sctpsim_ns3::kRxThreshW) << " dBm, cs "
                  << sctpsim_ns3::DbmFromWatts(sctpsim_ns3::kCsThreshW)
                  << " dBm\n";
        Simulator::Schedule(Seconds(1.0), [rsm]() {
            std::cerr << "t=1s basic modes:";
            for (uint8_t i = 0; i < rsm->GetNBasicModes(); ++i)
            {
                std::cerr << " " << rsm->GetBasicMode(i).GetUniqueName();
            }
            std::cerr << "; non-unicast " << rsm->GetNonUnicastMode().GetUniqueName()
                      << "; control answer to 2 Mbps data: "
                      << rsm->GetControlAnswerMode(WifiMode("DsssRate2Mbps")).GetUniqueName()
                      << "\n";
        });
        for (uint32_t i = 0; i < devices.GetN(); ++i)
        {
            g_macToNode[Mac48Address::ConvertFrom(devices.Get(i)->GetAddress())] = nodes.Get(i);
        }
        Config::Connect("/NodeList/*/DeviceList/*/$ns3::WifiNetDevice/Phy/PhyRxEnd",
                        MakeCallback(&OnPhyRxEnd));
    }

    Simulator::Stop(Seconds(duration));
    Simulator::Run();
    Simulator::Destroy();
    if (verbose)
    {
        std::cerr << "frames received (data/RTS): " << g_rxFrames << ", longest link "
                  << g_maxRxDist << " m\n";
    }

    double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    double pdf = g.dataSent ? double(g.dataRecv) / double(g.dataSent) : 0.0;
    double delay = g.dataRecv ? g.delaySum / double(g.dataRecv) : 0.0;
    double nrl = g.dataRecv ? double(g.routingPkts) / double(g.dataRecv) : 0.0;
    std::string proto = protocol;
    if (protocol == "aodv" && hello)
    {
        proto = "aodv-hello";
    }

    bool writeHeader = true;
    {
        std::ifstream in(csv);
        if (in.good() && in.peek() != std::ifstream::traits_type::eof())
        {
            writeHeader = false;
        }
    }
    std::ofstream out(csv, std::ios::app);
    if (writeHeader)
    {
        out << "protocol,sources,pause_s,run,duration_s,sent,received,pdf,mean_delay_s,"
               "routing_packets,routing_bytes,nrl,wall_s\n";
    }
    out << proto << "," << sources << "," << pause << "," << run << "," << duration << ","
        << g.dataSent << "," << g.dataRecv << "," << std::setprecision(6) << pdf << ","
        << delay << "," << g.routingPkts << "," << g.routingBytes << "," << nrl << ","
        << std::setprecision(4) << wall << "\n";
    if (!diagCsv.empty())
    {
        WriteDiagRow(diagCsv, proto, sources, pause, run, duration);
    }
    std::cout << proto << " sources=" << sources << " pause=" << pause << " run=" << run
              << " sent=" << g.dataSent << " recv=" << g.dataRecv << " pdf=" << pdf
              << " delay=" << delay << " rtg=" << g.routingPkts << " nrl=" << nrl
              << " wall=" << wall << "s\n";
    return 0;
}
