# tests/scenario-sizes.sh (sourced): scenario_args NAME prints the reduced
# arguments that a whole-catalogue test runs a shipped scenario with
# (NAME: the path under scenarios/ without .ini); none: as shipped.  Used
# by tests/perf/equiv.sh (each line's budget is its comment) and
# tests/recovery-invariant.sh.
scenario_args() {
    case $1 in
    # 19 sweep points -> 3 (all five strategies); 16 s -> 1 s
    aws-2015-occ) echo "--set 'sweep clients.values=50,100,150'" ;;
    # 45 sweep points (180 groups; 4 s) -> 6: a shorter table, a smaller family
    jitter-62-65-sensitivity) echo "--set 'sweep base.values=0.2,1' --set 'sweep outage.values=0.5,5,30'" ;;
    # The metastable family (a poisson load, a spike, a server that slows
    # down under load): fewer requests and an earlier spike, the same rates.
    # 40 baseline buckets keep recovered defined in most runs (25 left it
    # undefined in half: "fewer than 20 independent buckets"), and 30-40 s
    # of arrivals after the spike let the runs that recover do so.
    # 240,000 requests, spike at 60-70 s, 15 variants (320 s at 100
    # replications) -> 70,000 requests, spike at 40-50 s (about 60 s)
    metastable) echo "--set clients.count=70000 --set clients.spike_start_s=40 --set clients.spike_end_s=50" ;;
    # 18 loads x {no spike, a 40 s spike at 100-140 s} x 7 variants (46 s at
    # 2 replications: 2,300 s at 100) -> load 750 only, 90,000 requests, a 20 s
    # spike at 40-60 s (about 75-90 s)
    metastable-hysteresis) echo "--set 'sweep load.values=750' --set clients.count=90000 --set clients.spike_start_s=40 --set clients.spike_end_s=60" ;;
    # 10 loads x 4 spike lengths x 17 variants (161 s at 2 replications:
    # 8,000 s at 100) -> one point, load 850 with a 5 s spike at 40-45 s,
    # 70,000 requests (about 65 s; metastable above is load 750, a 10 s spike)
    metastable-map) echo "--set 'sweep load.values=850' --set 'sweep trigger.values=45' --set clients.count=70000 --set clients.spike_start_s=40" ;;
    # 120,000 requests, spike at 60-70 s (63 s) -> as metastable (about 25 s)
    priority-shedding) echo "--set clients.count=70000 --set clients.spike_start_s=40 --set clients.spike_end_s=50" ;;
    # 8,000 clients x 60 requests (123 s) -> 2,000 clients (about 20 s)
    quota-per-instance) echo "--set clients.count=2000" ;;
    # a 30-minute trace (no clients.count), 4 variants x 2 strategies (89 s)
    # -> full_jitter only (about 45 s: the exponential strategy's backoff
    # draws nothing; thundering-herd runs all six strategies)
    incident-replay) echo "--set run.strategies=full_jitter" ;;
    # 57,000 requests at 300/s, spike at 60-70 s (54 s) -> 36,000 with the
    # spike at 50-60 s (about 17 s)
    workshop/05-layers-metastability) echo "--set clients.count=36000 --set clients.spike_start_s=50 --set clients.spike_end_s=60" ;;
    # 7 sweep points x 4 strategies (42 s) -> 3 points (about 13 s)
    workshop/02-jitter-and-cap) echo "--set 'sweep cap.values=1,8,64'" ;;
    *) echo "" ;;
    esac
}
