// sctpsim reference runs: backlogged TCP pairs over a MANET in ns-3 3.44, set up to match
// python/sctpsim/scenarios/argyriou2004/manet.toml with `flows[0].transport = "tcp"` (sctpsim's
// `rfc` TCP profile) as closely as ns-3 allows.
//
// 50 nodes, random waypoint in 600 m x 600 m (speed U[minSpeed, maxSpeed], constant pause),
// the ns-2 WaveLAN-like 802.11b radio of manet_cbr.cc (ns2_wavelan.h), AODV (hellos off) or DSR,
// `pairs` BulkSendApplication -> PacketSink TCP NewReno flows from distinct random sources to
// random destinations (not the source), starting uniformly in [0, startSpread] s.
//
// One run per invocation; appends one CSV row (header written when the file is new/empty).
// Build and driver: run_manet_tcp.py next to this file; columns in tools/ns3/README.md.

#include "ns3/aodv-module.h"
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/dsr-module.h"
#include "ns3/internet-module.h"
#include "ns3/mobility-module.h"
#include "ns3/network-module.h"
#include "ns3/wifi-module.h"

#include "ns2_wavelan.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint16_t kPortBase = 9000;
constexpr uint8_t kDsrProtocol = 48; // dsr::DsrRouting::PROT_NUMBER

struct Counters
{
    std::string protocol;
    uint16_t portHi = kPortBase;            ///< flow ports are [kPortBase, portHi)
    std::vector<uint64_t> sinkBytes;        ///< per flow, bytes received by the PacketSink
    uint64_t routingPkts = 0;               ///< routing control transmissions (see OnIpTx)
    uint64_t routingBytes = 0;
    uint64_t dataSegSent = 0;               ///< AODV only: TCP data segments sent by sources
    uint64_t dataSegDelivered = 0;          ///< AODV only: ... and delivered to the destination IP
};

Counters g;

void
OnSinkRx(uint32_t flow, Ptr<const Packet> p, const Address&)
{
    g.sinkBytes[flow] += p->GetSize();
}

/// Routing control packets: every IPv4 transmission (originated or forwarded) handed to the
/// Wi-Fi interface. AODV: UDP to port 654. DSR: a DSR packet (IP protocol 48) whose fixed
/// header says message type 1 (control: RREQ, RREP, RERR, ACK request/ACK); type 2 is a data
/// packet carrying a source route.
void
OnIpTx(Ptr<const Packet> p, Ptr<Ipv4>, uint32_t iface)
{
    if (iface == 0)
    {
        return; // loopback (AODV's deferred-route trick)
    }
    Ptr<Packet> c = p->Copy();
    Ipv4Header ip;
    c->RemoveHeader(ip);
    if (g.protocol == "aodv" && ip.GetProtocol() == UdpL4Protocol::PROT_NUMBER)
    {
        UdpHeader udp;
        c->PeekHeader(udp);
        if (udp.GetDestinationPort() == 654)
        {
            g.routingPkts++;
            g.routingBytes += p->GetSize();
        }
    }
    else if (g.protocol == "dsr" && ip.GetProtocol() == kDsrProtocol && c->GetSize() >= 2)
    {
        uint8_t b[2];
        c->CopyData(b, 2); // DsrFsHeader: next header, message type, ...
        if (b[1] == 1)
        {
            g.routingPkts++;
            g.routingBytes += p->GetSize();
        }
    }
}

/// True for a TCP segment with payload to one of the flows' sink ports (`p` without IP header).
bool
IsDataSegment(const Ipv4Header& ip, Ptr<const Packet> p)
{
    if (ip.GetProtocol() != TcpL4Protocol::PROT_NUMBER)
    {
        return false;
    }
    TcpHeader tcp;
    uint32_t hlen = p->PeekHeader(tcp);
    return p->GetSize() > hlen && tcp.GetDestinationPort() >= kPortBase &&
           tcp.GetDestinationPort() < g.portHi;
}

// AODV only (TCP sits directly on IPv4 there): data segments leaving the source's IP layer
// (SendOutgoing: once per segment, retransmissions included) and arriving at the destination's
// (LocalDeliver). With DSR, TCP hands its segments to the DSR layer, which wraps them in DSR
// packets hop by hop, so these traces do not see them; the column is left empty.
void
OnSendOutgoing(const Ipv4Header& ip, Ptr<const Packet> p, uint32_t)
{
    if (IsDataSegment(ip, p))
    {
        g.dataSegSent++;
    }
}

void
OnLocalDeliver(const Ipv4Header& ip, Ptr<const Packet> p, uint32_t)
{
    if (IsDataSegment(ip, p))
    {
        g.dataSegDelivered++;
    }
}

double
UserCpuSeconds()
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_utime.tv_sec) + 1e-6 * double(ru.ru_utime.tv_usec);
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string protocol = "aodv";
    uint32_t pairs = 20;
    double pause = 0.0;
    double minSpeed = 1.0;
    double maxSpeed = 20.0;
    double fieldX = 600.0;
    double fieldY = 600.0;
    uint32_t run = 1;
    uint32_t seed = 1;
    double duration = 200.0;
    double startSpread = 10.0;
    uint32_t nNodes = 50;
    uint32_t mss = 1000;
    uint32_t initialCwnd = 4;
    std::string csv = "ns3-manet-tcp.csv";
    bool verbose = false;

    CommandLine cmd(__FILE__);
    cmd.AddValue("protocol", "aodv (hellos off) or dsr", protocol);
    cmd.AddValue("pairs", "number of TCP pairs (distinct source nodes)", pairs);
    cmd.AddValue("pause", "random-waypoint pause time (s)", pause);
    cmd.AddValue("minSpeed", "minimum speed (m/s)", minSpeed);
    cmd.AddValue("maxSpeed", "maximum speed (m/s)", maxSpeed);
    cmd.AddValue("fieldX", "field width (m)", fieldX);
    cmd.AddValue("fieldY", "field height (m)", fieldY);
    cmd.AddValue("run", "RngSeedManager run number", run);
    cmd.AddValue("seed", "RngSeedManager seed", seed);
    cmd.AddValue("duration", "simulated time (s)", duration);
    cmd.AddValue("startSpread", "flow start times uniform in [0, startSpread] s", startSpread);
    cmd.AddValue("nodes", "number of nodes", nNodes);
    cmd.AddValue("mss", "TcpSocket::SegmentSize (bytes of payload per segment)", mss);
    cmd.AddValue("initialCwnd", "TcpSocket::InitialCwnd (segments)", initialCwnd);
    cmd.AddValue("csv", "CSV file to append one row to", csv);
    cmd.AddValue("verbose", "print the flows", verbose);
    cmd.Parse(argc, argv);

    if (protocol != "aodv" && protocol != "dsr")
    {
        std::cerr << "protocol must be aodv or dsr\n";
        return 2;
    }
    auto wall0 = std::chrono::steady_clock::now();
    g.protocol = protocol;

    RngSeedManager::SetSeed(seed);
    RngSeedManager::SetRun(run);

    // --- TCP: sctpsim's `rfc` profile (crates/proto/src/transport/tcp/config.rs) -------------
    // NewReno with RFC 6582 recovery (ns-3 3.44's defaults are CUBIC and PRR recovery).
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TcpNewReno::GetTypeId()));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType",
                       TypeIdValue(TcpClassicRecovery::GetTypeId()));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(mss));
    // RFC 5681 eq. (1) for SMSS 988 (1000 - 12 timestamp bytes in sctpsim): 3952 B = 4 segments
    // (ns-3's default is 10).
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(initialCwnd));
    Config::SetDefault("ns3::TcpSocket::InitialSlowStartThreshold", UintegerValue(UINT32_MAX));
    // 65,535-byte receive buffer, no window scaling (ns-3: 128 KiB and scaling on).
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(65535));
    Config::SetDefault("ns3::TcpSocketBase::WindowScaling", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(1 << 20));
    // Timestamps on; SACK off (our NewReno client does not offer SACK-Permitted).
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::LimitedTransmit", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocket::TcpNoDelay", BooleanValue(false)); // Nagle on
    // Delayed ACKs: every second segment or 200 ms.
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(2));
    Config::SetDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(MilliSeconds(200)));
    // RFC 6298: initial RTO 1 s, minimum 1 s, G = 1 ms (ns-3 has no attribute for the
    // maximum RTO; sctpsim's is 60 s).
    Config::SetDefault("ns3::RttEstimator::InitialEstimation", TimeValue(Seconds(1)));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(Seconds(1)));
    Config::SetDefault("ns3::TcpSocketBase::ClockGranularity", TimeValue(MilliSeconds(1)));
    Config::SetDefault("ns3::TcpSocketBase::ReTxThreshold", UintegerValue(3));
    // Give up after 15 consecutive timeouts (ns-3's default is 6); SYN timeout 1 s.
    Config::SetDefault("ns3::TcpSocket::DataRetries", UintegerValue(15));
    Config::SetDefault("ns3::TcpSocket::ConnCount", UintegerValue(15));
    Config::SetDefault("ns3::TcpSocket::ConnTimeout", TimeValue(Seconds(1)));

    // --- radio and interface queue (as manet_cbr.cc) -------------------------------------------
    sctpsim_ns3::SetNs2IfqDefaults();
    NodeContainer nodes;
    nodes.Create(nNodes);
    NetDeviceContainer devices = sctpsim_ns3::InstallNs2WaveLan(nodes);

    // --- mobility: ns-3's random waypoint (with pause 0 the same model as sctpsim's) --------
    {
        MobilityHelper mob;
        ObjectFactory pos;
        pos.SetTypeId("ns3::RandomRectanglePositionAllocator");
        std::ostringstream xs, ys, speed, pz;
        xs << "ns3::UniformRandomVariable[Min=0.0|Max=" << fieldX << "]";
        ys << "ns3::UniformRandomVariable[Min=0.0|Max=" << fieldY << "]";
        speed << "ns3::UniformRandomVariable[Min=" << minSpeed << "|Max=" << maxSpeed << "]";
        pz << "ns3::ConstantRandomVariable[Constant=" << pause << "]";
        pos.Set("X", StringValue(xs.str()));
        pos.Set("Y", StringValue(ys.str()));
        Ptr<PositionAllocator> alloc = pos.Create()->GetObject<PositionAllocator>();
        alloc->AssignStreams(1000);
        mob.SetMobilityModel("ns3::RandomWaypointMobilityModel",
                             "Speed", StringValue(speed.str()),
                             "Pause", StringValue(pz.str()),
                             "PositionAllocator", PointerValue(alloc));
        mob.SetPositionAllocator(alloc);
        mob.Install(nodes);
        // Fixed streams so that the mobility does not depend on the routing protocol.
        mob.AssignStreams(nodes, 1100);
    }

    // --- routing and IP -------------------------------------------------------------------------
    InternetStackHelper internet;
    AodvHelper aodv;
    if (protocol == "aodv")
    {
        aodv.Set("EnableHello", BooleanValue(false)); // link-layer feedback, as sctpsim
        internet.SetRoutingHelper(aodv);
    }
    internet.Install(nodes);
    if (protocol == "dsr")
    {
        // ns-3's DSR: an IP-layer protocol between TCP/UDP and IPv4 (ns-3 defaults).
        DsrMainHelper dsrMain;
        DsrHelper dsr;
        dsrMain.Install(dsr, nodes);
    }
    Ipv4AddressHelper addr;
    addr.SetBase("10.1.0.0", "255.255.0.0");
    Ipv4InterfaceContainer ifs = addr.Assign(devices);
    sctpsim_ns3::RemoveQueueDiscs(devices);
    sctpsim_ns3::FillPermanentArp(nodes, devices, ifs);
    if (protocol == "aodv")
    {
        aodv.AssignStreams(nodes, 2000);
    }

    // --- traffic: `pairs` backlogged TCP flows ------------------------------------------------
    Ptr<UniformRandomVariable> pick = CreateObject<UniformRandomVariable>();
    pick->SetStream(3000);
    Ptr<UniformRandomVariable> start = CreateObject<UniformRandomVariable>();
    start->SetStream(3001);
    std::vector<uint32_t> perm(nNodes);
    for (uint32_t i = 0; i < nNodes; ++i)
    {
        perm[i] = i;
    }
    for (uint32_t i = 0; i < pairs && i < nNodes; ++i) // partial Fisher-Yates: distinct sources
    {
        uint32_t j = i + pick->GetInteger(0, nNodes - 1 - i);
        std::swap(perm[i], perm[j]);
    }
    g.sinkBytes.assign(pairs, 0);
    g.portHi = kPortBase + pairs;
    std::vector<double> starts(pairs);
    for (uint32_t f = 0; f < pairs; ++f)
    {
        uint32_t src = perm[f];
        uint32_t dst = pick->GetInteger(0, nNodes - 2);
        if (dst >= src)
        {
            dst++;
        }
        uint16_t port = kPortBase + f;
        PacketSinkHelper sink("ns3::TcpSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer sa = sink.Install(nodes.Get(dst));
        sa.Start(Seconds(0.0));
        sa.Stop(Seconds(duration));
        sa.Get(0)->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnSinkRx, f));

        BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(ifs.GetAddress(dst), port));
        bulk.SetAttribute("MaxBytes", UintegerValue(0));
        bulk.SetAttribute("SendSize", UintegerValue(mss));
        ApplicationContainer ca = bulk.Install(nodes.Get(src));
        starts[f] = start->GetValue(0.0, startSpread);
        ca.Start(Seconds(starts[f]));
        ca.Stop(Seconds(duration));
        if (verbose)
        {
            std::cerr << "flow " << f << ": " << src << " -> " << dst << " start " << starts[f]
                      << "\n";
        }
    }

    Config::ConnectWithoutContext("/NodeList/*/$ns3::Ipv4L3Protocol/Tx", MakeCallback(&OnIpTx));
    if (protocol == "aodv")
    {
        Config::ConnectWithoutContext("/NodeList/*/$ns3::Ipv4L3Protocol/SendOutgoing",
                                      MakeCallback(&OnSendOutgoing));
        Config::ConnectWithoutContext("/NodeList/*/$ns3::Ipv4L3Protocol/LocalDeliver",
                                      MakeCallback(&OnLocalDeliver));
    }

    Simulator::Stop(Seconds(duration));
    Simulator::Run();
    Simulator::Destroy();

    // --- results --------------------------------------------------------------------------------
    std::vector<double> kbps(pairs);
    for (uint32_t f = 0; f < pairs; ++f)
    {
        kbps[f] = double(g.sinkBytes[f]) * 8.0 / (duration - starts[f]) / 1000.0;
    }
    std::vector<double> sorted = kbps;
    std::sort(sorted.begin(), sorted.end());
    double mean = 0.0;
    for (double x : kbps)
    {
        mean += x / double(pairs);
    }
    double median = pairs == 0 ? 0.0
                    : pairs % 2 ? sorted[pairs / 2]
                                : 0.5 * (sorted[pairs / 2 - 1] + sorted[pairs / 2]);
    uint32_t zero = std::count(kbps.begin(), kbps.end(), 0.0);
    double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    double user = UserCpuSeconds();

    std::ostringstream perFlow;
    perFlow << std::fixed << std::setprecision(3);
    for (uint32_t f = 0; f < pairs; ++f)
    {
        perFlow << (f ? ";" : "") << kbps[f];
    }
    std::ostringstream pdf;
    if (protocol == "aodv" && g.dataSegSent > 0)
    {
        pdf << std::setprecision(6) << double(g.dataSegDelivered) / double(g.dataSegSent);
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
        out << "simulator,protocol,run,duration_s,pairs,max_speed_mps,pause_s,mean_kbps,"
               "median_kbps,zero_flows,data_segments_sent,data_segments_delivered,ip_pdf,"
               "routing_packets,routing_bytes,wall_s,user_cpu_s,per_flow_kbps\n";
    }
    out << "ns-3.44," << protocol << "," << run << "," << duration << "," << pairs << ","
        << maxSpeed << "," << pause << "," << std::fixed << std::setprecision(3) << mean << ","
        << median << "," << zero << ",";
    if (protocol == "aodv")
    {
        out << g.dataSegSent << "," << g.dataSegDelivered;
    }
    else
    {
        out << ",";
    }
    out << "," << pdf.str() << "," << g.routingPkts << "," << g.routingBytes << ","
        << std::setprecision(2) << wall << "," << user << "," << perFlow.str() << "\n";
    std::cout << protocol << " run=" << run << " mean=" << mean << " kbit/s median=" << median
              << " zero=" << zero << " pdf=" << pdf.str() << " rtg=" << g.routingPkts
              << " wall=" << wall << "s user=" << user << "s\n";
    return 0;
}
