// sctpsim reference runs: 802.11a rate adaptation (Constant 54 Mbit/s, ARF, AARF, Minstrel)
// in ns-3 3.44, set up like sctpsim's `80211a` radio preset with SINR reception.
//
// Two set-ups, one run per invocation, one CSV row appended:
//   --stations=1 : one saturated UDP link, sender at --distance metres from the receiver;
//   --stations=n : n saturated senders on a circle of --distance metres around one receiver.
//
// Radio (matching sctpsim's `80211a` preset, crates/engine/src/wireless/profiles.rs):
// 802.11a OFDM, 5180 MHz, 16.0206 dBm, noise figure 7 dB, RxSensitivity -101 dBm,
// CcaEdThreshold -62 dBm, log-distance loss (exponent 3, 46.6777 dB at 1 m; the
// YansWifiChannelHelper default), NistErrorRateModel (sctpsim's OFDM model follows the same
// Pei & Henderson approach). The preamble detection model is disabled: sctpsim has none (a
// frame is received if its power is above the sensitivity and its SINR survives the error
// model). Ad hoc MAC without QoS (DCF), RTS/CTS off, neighbour caches filled up front
// (no ARP traffic, as sctpsim's static IP -> MAC map).
//
// Traffic: UDP, 1472-byte payloads (1500-byte IP packets), offered at 100 Mbit/s per sender
// (saturated at every 802.11a rate). Throughput = UDP payload bits received after the
// warm-up / (duration - warm-up).
// Build and grid driver: run_rate_control.py next to this file.

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mobility-module.h"
#include "ns3/network-module.h"
#include "ns3/wifi-module.h"

#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <string>

using namespace ns3;

namespace
{

uint64_t g_rxBytes = 0;
double g_warmup = 1.0;
// Data frames put on the air after the warm-up (first transmissions and retries) and the sum
// of their rates: the per-attempt mean data rate.
uint64_t g_dataTx = 0;
double g_dataRateSum = 0.0;
uint64_t g_rateChanges = 0;

void
RxPacket(Ptr<const Packet> p, const Address&)
{
    if (Simulator::Now().GetSeconds() >= g_warmup)
    {
        g_rxBytes += p->GetSize();
    }
}

void
SnifferTx(Ptr<const Packet> p,
          uint16_t,
          WifiTxVector txVector,
          MpduInfo,
          uint16_t)
{
    if (Simulator::Now().GetSeconds() < g_warmup)
    {
        return;
    }
    // Data frames are the only frames longer than 1000 bytes here.
    if (p->GetSize() > 1000)
    {
        g_dataTx++;
        g_dataRateSum += static_cast<double>(txVector.GetMode().GetDataRate(txVector));
    }
}

void
RateChanged(uint64_t oldRate, uint64_t newRate)
{
    if (Simulator::Now().GetSeconds() >= g_warmup && oldRate != newRate)
    {
        g_rateChanges++;
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string algo = "arf";
    double distance = 10.0;
    uint32_t stations = 1;
    uint32_t run = 1;
    double duration = 10.0;
    std::string csv = "rate-control.csv";
    std::string mode = "OfdmRate54Mbps";

    CommandLine cmd(__FILE__);
    cmd.AddValue("algo", "constant | arf | aarf | minstrel", algo);
    cmd.AddValue("distance", "sender-receiver distance (m)", distance);
    cmd.AddValue("stations", "number of saturated senders", stations);
    cmd.AddValue("run", "RngRun", run);
    cmd.AddValue("duration", "simulated seconds", duration);
    cmd.AddValue("warmup", "seconds not measured", g_warmup);
    cmd.AddValue("csv", "CSV file to append to", csv);
    cmd.AddValue("mode", "data mode of --algo=constant (ns-3 WifiMode name)", mode);
    cmd.Parse(argc, argv);

    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(run);

    NodeContainer nodes;
    nodes.Create(stations + 1);

    WifiHelper wifi;
    wifi.SetStandard(WIFI_STANDARD_80211a);
    if (algo == "constant")
    {
        wifi.SetRemoteStationManager("ns3::ConstantRateWifiManager",
                                     "DataMode",
                                     StringValue(mode));
    }
    else if (algo == "arf")
    {
        wifi.SetRemoteStationManager("ns3::ArfWifiManager");
    }
    else if (algo == "aarf")
    {
        wifi.SetRemoteStationManager("ns3::AarfWifiManager");
    }
    else if (algo == "minstrel")
    {
        wifi.SetRemoteStationManager("ns3::MinstrelWifiManager");
    }
    else
    {
        std::cerr << "unknown --algo " << algo << "\n";
        return 2;
    }

    YansWifiChannelHelper channel = YansWifiChannelHelper::Default();
    YansWifiPhyHelper phy;
    phy.SetChannel(channel.Create());
    phy.SetErrorRateModel("ns3::NistErrorRateModel");
    phy.DisablePreambleDetectionModel();
    phy.Set("TxPowerStart", DoubleValue(16.0206));
    phy.Set("TxPowerEnd", DoubleValue(16.0206));
    phy.Set("RxNoiseFigure", DoubleValue(7.0));
    phy.Set("RxSensitivity", DoubleValue(-101.0));
    phy.Set("CcaEdThreshold", DoubleValue(-62.0));

    WifiMacHelper mac;
    mac.SetType("ns3::AdhocWifiMac");
    NetDeviceContainer devices = wifi.Install(phy, mac, nodes);

    MobilityHelper mobility;
    Ptr<ListPositionAllocator> pos = CreateObject<ListPositionAllocator>();
    pos->Add(Vector(0.0, 0.0, 0.0));
    for (uint32_t i = 0; i < stations; ++i)
    {
        double a = 2.0 * M_PI * i / stations;
        pos->Add(Vector(distance * std::cos(a), distance * std::sin(a), 0.0));
    }
    mobility.SetPositionAllocator(pos);
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    mobility.Install(nodes);

    InternetStackHelper internet;
    internet.Install(nodes);
    Ipv4AddressHelper ipv4;
    ipv4.SetBase("10.1.0.0", "255.255.0.0");
    Ipv4InterfaceContainer ifaces = ipv4.Assign(devices);
    NeighborCacheHelper neighbors;
    neighbors.PopulateNeighborCache();

    const uint16_t port = 9;
    PacketSinkHelper sink("ns3::UdpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sinkApp = sink.Install(nodes.Get(0));
    sinkApp.Start(Seconds(0.0));
    sinkApp.Get(0)->TraceConnectWithoutContext("Rx", MakeCallback(&RxPacket));

    for (uint32_t i = 1; i <= stations; ++i)
    {
        OnOffHelper onoff("ns3::UdpSocketFactory", InetSocketAddress(ifaces.GetAddress(0), port));
        onoff.SetConstantRate(DataRate("100Mbps"), 1472);
        ApplicationContainer app = onoff.Install(nodes.Get(i));
        // Senders start 1 ms apart (as sctpsim's flows start at t = 0 but contend at once).
        app.Start(Seconds(0.1 + 0.001 * i));
        app.Stop(Seconds(duration));
    }

    Config::ConnectWithoutContext("/NodeList/*/DeviceList/*/$ns3::WifiNetDevice/Phy/MonitorSnifferTx",
                                  MakeCallback(&SnifferTx));
    if (algo != "constant")
    {
        std::string mgr = algo == "arf"    ? "ArfWifiManager"
                          : algo == "aarf" ? "AarfWifiManager"
                                           : "MinstrelWifiManager";
        Config::ConnectWithoutContext("/NodeList/*/DeviceList/*/$ns3::WifiNetDevice/"
                                      "RemoteStationManager/$ns3::" +
                                          mgr + "/Rate",
                                      MakeCallback(&RateChanged));
    }

    auto t0 = std::chrono::steady_clock::now();
    Simulator::Stop(Seconds(duration));
    Simulator::Run();
    Simulator::Destroy();
    double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    double tput = g_rxBytes * 8.0 / (duration - g_warmup);
    double meanRate = g_dataTx ? g_dataRateSum / g_dataTx : 0.0;

    bool header = false;
    {
        std::ifstream in(csv);
        header = !in.good() || in.peek() == std::ifstream::traits_type::eof();
    }
    std::ofstream out(csv, std::ios::app);
    if (header)
    {
        out << "algo,stations,distance_m,run,duration_s,throughput_bps,mean_data_rate_bps,"
               "data_tx,rate_changes,wall_s\n";
    }
    out << algo << "," << stations << "," << distance << "," << run << "," << duration << ","
        << std::fixed << std::setprecision(0) << tput << "," << meanRate << "," << g_dataTx
        << "," << g_rateChanges << "," << std::setprecision(2) << wall << "\n";
    return 0;
}
