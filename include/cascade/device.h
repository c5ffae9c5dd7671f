#pragma once
// Where pipelines run.
#include <string>
#include <vector>

namespace cascade {

enum class Device { cpu, cuda };

const char *device_name(Device device);  // "cpu", "cuda"

// What the machine offers. Probes the CUDA driver directly (dlopen of libcuda), so a machine
// without one is told apart from a broken build before any pipeline runs.
struct CudaInfo {
    int devices = 0;
    std::string name;    // of device 0, when there is one
    std::string reason;  // why there is none, when devices == 0
};

const CudaInfo &cuda_info();

// Where the user asked a pipeline to run: `automatic` takes CUDA when this build has CUDA
// variants and the machine a device, the CPU otherwise.
enum class DeviceChoice { automatic, cpu, cuda };

DeviceChoice parse_device_choice(const std::string &text);  // "auto", "cpu", "cuda"
std::vector<std::string> device_choice_names();             // the same

// Throws cascade::Error, saying why, when `cuda` is asked for and cannot be had.
Device resolve_device(DeviceChoice choice);

// The device a plan is made for: as resolve_device, but `cuda` needs only this build's CUDA
// variants, not a device present (plans are made, and their variants chosen, before they run; the
// run says where the device is missing).
Device plan_device(DeviceChoice choice);

// The choice that resolves to `device`: for a caller that resolved it already and hands it on
// through options.
DeviceChoice choice_of(Device device);

// While one lives, the CPU pipelines this thread calls run their parallel loops on this thread
// alone: for a caller that spreads its own work over the cores, one piece a thread (the Python
// package's Dask tasks), where each call's own threads would crowd the cores (8192² in 1024²
// chunks on 2 cores, two tasks at a time: van Vliet 207–210 ms, serial calls 187–190). Scopes nest.
class SerialCalls {
public:
    SerialCalls();
    ~SerialCalls();
    SerialCalls(const SerialCalls &) = delete;
    SerialCalls &operator=(const SerialCalls &) = delete;

private:
    bool previous_;
};

}  // namespace cascade
