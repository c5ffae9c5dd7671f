// The application API (include/cascade/cascade.h): plans shared between threads, and CUDA memory
// and streams the caller owns (cascade/cuda.h).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <filesystem>
#include <thread>

#include "cascade/cascade.h"
#include "contract/register_budget.h"
#include "cuda_support.h"
#include "file_bytes.h"
#include "io/image_io.h"
#include "runtime/cuda/cuda_register_budget.h"
#include "runtime/design/reference.h"
#include "test_support.h"

#ifdef CASCADE_TEST_CUDA_RUNTIME
#include <HalideRuntimeCuda.h>
#include <cuda_runtime.h>
#endif

namespace cascade {
namespace {

// `plan` run on `input` by `threads` threads at once, `runs` times each, into outputs of their
// own: every result must equal the first, computed alone.
template <typename Plan>
void expect_same_from_threads(Plan &plan, const Image &input, int threads, int runs) {
    Image alone(input.width, input.height, input.channels);
    plan.run(input, alone);
    std::vector<Image> outputs(threads * runs, Image(input.width, input.height, input.channels));
    for (Image &o : outputs) std::fill(o.data.begin(), o.data.end(), NAN);
    std::vector<std::thread> pool;
    std::vector<std::string> errors(threads);
    for (int t = 0; t < threads; t++)
        pool.emplace_back([&, t] {
            try {
                for (int r = 0; r < runs; r++) plan.run(input, outputs[t * runs + r]);
            } catch (const Error &e) {
                errors[t] = e.what();
            }
        });
    for (std::thread &t : pool) t.join();
    for (int t = 0; t < threads; t++) EXPECT_EQ(errors[t], "") << "thread " << t;
    for (const Image &o : outputs) EXPECT_EQ(o.data, alone.data);
}

class PlanThreads : public testing::DeviceTest<DeviceChoice> {};

TEST_P(PlanThreads, IirPlanGivesTheSameResultFromSeveralThreadsAtOnce) {
    auto rng = testing::rng_for_test();
    const Image input = testing::random_image(rng, 97, 61, 2);
    const RecursiveFilter g = van_vliet_gaussian(3.0);
    IirPlan plan({g, g}, input.width, input.height, {Boundary::reflect, GetParam()});
    expect_same_from_threads(plan, input, 4, 3);
    Image output(input.width, input.height, input.channels);
    plan.run(input, output);
    for (int c = 0; c < input.channels; c++)
        EXPECT_TRUE(testing::within_relative_l2(
            reference::plane(output, c),
            reference::filter_2d({g, g}, reference::plane(input, c), Boundary::reflect), 1e-5));
}

TEST(SerialCalls, PlansRunInsideTheScopeGiveThePooledResultFromEveryThread) {
    auto rng = testing::rng_for_test();
    const Image input = testing::random_image(rng, 301, 257, 1);  // strips on several threads when pooled
    const RecursiveFilter g = van_vliet_gaussian(4.0);
    IirPlan plan({g, g}, input.width, input.height, {Boundary::mirror, DeviceChoice::cpu});
    Image pooled(input.width, input.height, 1);
    plan.run(input, pooled);
    std::vector<Image> outputs(3, Image(input.width, input.height, 1));
    for (Image &o : outputs) std::fill(o.data.begin(), o.data.end(), NAN);
    std::vector<std::thread> threads;
    for (Image &o : outputs)
        threads.emplace_back([&] {
            SerialCalls outer;
            {
                SerialCalls inner;  // nested: the outer scope still holds after it
            }
            plan.run(input, o);
        });
    for (std::thread &t : threads) t.join();
    for (const Image &o : outputs) EXPECT_EQ(o.data, pooled.data);
    Image after(input.width, input.height, 1);
    plan.run(input, after);  // outside every scope: pooled again
    EXPECT_EQ(after.data, pooled.data);
}

TEST_P(PlanThreads, GaussianPlansOfEveryMethodShareAcrossThreads) {
    auto rng = testing::rng_for_test();
    const Image input = testing::random_image(rng, 64, 45, 1);
    for (GaussianMethod method : {GaussianMethod::vanvliet, GaussianMethod::deriche2,
                                  GaussianMethod::deriche4, GaussianMethod::twoway}) {
        GaussianPlan plan(design_gaussian(2.0, method), input.width, input.height, input.channels,
                          {Boundary::none, GetParam()});
        SCOPED_TRACE(gaussian_method_name(method));
        expect_same_from_threads(plan, input, 3, 2);
    }
}

INSTANTIATE_TEST_SUITE_P(Devices, PlanThreads, ::testing::Values(DeviceChoice::cpu, DeviceChoice::cuda),
                         [](const auto &info) { return info.param == DeviceChoice::cpu ? "cpu" : "cuda"; });

// The kernels' register budgets (contract/register_budget.h), as the runtime writes them into a
// pipeline's PTX before the driver compiles it.
TEST(RegisterBudget, MarkedKernelsGetTheirBudgetAndTheRestIsUnchanged) {
    const std::string marked = "_kernel_f_s0_" + register_budget_name("c", 255) + "___block_id_y";
    const std::string ptx =
        ".version 7.0\n.visible .entry _kernel_g_s0_c___block_id_x(\n\t.param .u64 a\n)\n{\n}\n"
        ".visible .entry " +
        marked + "(\n\t.param .u64 a,\n\t.param .u32 b\n)\n{\n}\n";
    const std::string out = apply_register_budgets(ptx);
    const std::string expected_marked_head =
        ".visible .entry " + marked + "(\n\t.param .u64 a,\n\t.param .u32 b\n)\n.maxnreg 255\n{";
    EXPECT_NE(out.find(expected_marked_head), std::string::npos) << out;
    EXPECT_EQ(out.find(".maxnreg"), out.rfind(".maxnreg")) << "only the marked kernel: " << out;
    EXPECT_EQ(out.size(), ptx.size() + std::string("\n.maxnreg 255").size());
    const std::string plain = ".visible .entry _kernel_g(\n)\n{\n}\n";
    EXPECT_EQ(apply_register_budgets(plain), plain);
    EXPECT_EQ(apply_register_budgets(""), "");
}

TEST(RegisterBudget, RefusesMarksWithoutABudgetOrOutOfRange) {
    const auto entry = [](const std::string &name) { return ".visible .entry " + name + "(\n)\n{\n}\n"; };
    EXPECT_THROW(apply_register_budgets(entry(std::string("_kernel_f") + kRegisterBudgetMark + "_x")),
                 std::invalid_argument);
    EXPECT_THROW(apply_register_budgets(entry("_kernel_f_" + register_budget_name("c", 300))),
                 std::invalid_argument);
    EXPECT_THROW(apply_register_budgets(entry("_kernel_f_" + register_budget_name("c", 8))),
                 std::invalid_argument);
    EXPECT_NO_THROW(apply_register_budgets(entry("_kernel_f_" + register_budget_name("c", 16))));
}

TEST(CudaWrap, RefusesNullPointersAndEmptyShapes) {
    EXPECT_THROW(cuda::wrap<float>(nullptr, 4, 4), Error);
    float fake = 0;
    EXPECT_THROW(cuda::wrap(&fake, 0, 4), Error);
    EXPECT_THROW(cuda::wrap(&fake, 8, 4, 1, 4), Error);  // rows overlap
}

TEST(CudaScope, NestsAndRestores) {
    // Only the hooks read the choice; nesting must not throw or leak past the scopes.
    cuda::Scope outer(nullptr);
    { cuda::Scope inner(reinterpret_cast<void *>(0x1)); }
    SUCCEED();
}

#ifdef CASCADE_TEST_CUDA_RUNTIME

#define CUDA_OK(call) ASSERT_EQ((call), cudaSuccess) << #call

// What an application does: its own device memory and stream, Cascade's plan on them, no host
// copy made by the library; the launches are queued on the caller's stream (captured into a graph).
TEST(CudaApi, BlursTheCallersDeviceMemoryOnTheCallersStream) {
    std::string why;
    if (testing::cuda_unavailable(why)) GTEST_SKIP() << why;
    const int W = 301, H = 157;
    auto rng = testing::rng_for_test();
    const Image input = testing::random_image(rng, W, H, 1);
    const RecursiveFilter g = van_vliet_gaussian(4.0);

    cudaStream_t stream;
    CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    float *in = nullptr, *out = nullptr;
    CUDA_OK(cudaMalloc(&in, sizeof(float) * W * H));
    CUDA_OK(cudaMalloc(&out, sizeof(float) * W * H));
    CUDA_OK(cudaMemcpyAsync(in, input.data.data(), sizeof(float) * W * H, cudaMemcpyHostToDevice, stream));
    CUDA_OK(cudaMemsetAsync(out, 0xff, sizeof(float) * W * H, stream));  // NaN

    IirPlan plan({g, g}, W, H, {Boundary::mirror, DeviceChoice::cuda});
    auto src = cuda::wrap(in, W, H), dst = cuda::wrap(out, W, H);
    {
        cuda::Scope on(stream);
        plan.run(src.raw_buffer(), dst.raw_buffer());
    }
    EXPECT_EQ(src.raw_buffer()->host, nullptr);
    EXPECT_EQ(dst.raw_buffer()->host, nullptr);
    Image result(W, H, 1);
    CUDA_OK(cudaMemcpyAsync(result.data.data(), out, sizeof(float) * W * H, cudaMemcpyDeviceToHost, stream));
    CUDA_OK(cudaStreamSynchronize(stream));
    EXPECT_TRUE(testing::within_relative_l2(
        reference::plane(result, 0),
        reference::filter_2d({g, g}, reference::plane(input, 0), Boundary::mirror), 1e-5));

    // The same call captured: its kernels must land in the graph of the caller's stream.
    cudaGraph_t graph;
    CUDA_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed));
    std::string failure;
    try {
        cuda::Scope on(stream);
        plan.run(src.raw_buffer(), dst.raw_buffer());
    } catch (const Error &e) {
        failure = e.what();
    }
    CUDA_OK(cudaStreamEndCapture(stream, &graph));
    EXPECT_EQ(failure, "");
    size_t count = 0;
    CUDA_OK(cudaGraphGetNodes(graph, nullptr, &count));
    std::vector<cudaGraphNode_t> nodes(count);
    CUDA_OK(cudaGraphGetNodes(graph, nodes.data(), &count));
    int kernels = 0;
    for (cudaGraphNode_t n : nodes) {
        cudaGraphNodeType type;
        CUDA_OK(cudaGraphNodeGetType(n, &type));
        kernels += type == cudaGraphNodeTypeKernel;
    }
    EXPECT_GT(kernels, 0) << "no kernel of the plan was queued on the caller's stream";
    CUDA_OK(cudaGraphDestroy(graph));
    CUDA_OK(cudaFree(in));
    CUDA_OK(cudaFree(out));
    CUDA_OK(cudaStreamDestroy(stream));
}

// Every algorithm on buffers that have no host memory at all, as cuda::wrap makes them: RT under
// boundary none requires the output's host pointer if its last pass's pure definition is left on
// the host (schedules/rt_schedule.cpp), and so would a realisation's device-only intermediate.
TEST(CudaApi, DeviceOnlyBuffersRunEveryAlgorithm) {
    std::string skipped;
    const std::vector<Algorithm> algorithms =
        testing::built_algorithms({Algorithm::rt, Algorithm::a4, Algorithm::a6}, skipped);
    std::string why;
    if (testing::cuda_unavailable(why)) GTEST_SKIP() << why;
    const int W = 77, H = 45;
    auto rng = testing::rng_for_test();
    const Image input = testing::random_image(rng, W, H, 1);
    const RecursiveFilter g = van_vliet_gaussian(3.0);
    float *in = nullptr, *out = nullptr;
    CUDA_OK(cudaMalloc(&in, sizeof(float) * W * H));
    CUDA_OK(cudaMalloc(&out, sizeof(float) * W * H));
    CUDA_OK(cudaMemcpy(in, input.data.data(), sizeof(float) * W * H, cudaMemcpyHostToDevice));
    for (Algorithm algorithm : algorithms)
        for (Boundary boundary : {Boundary::none, Boundary::mirror}) {
            CUDA_OK(cudaMemset(out, 0xff, sizeof(float) * W * H));  // NaN
            IirPlan plan({g, g}, W, H, {boundary, DeviceChoice::cuda, Form::automatic, algorithm});
            auto src = cuda::wrap(in, W, H), dst = cuda::wrap(out, W, H);
            plan.run(src.raw_buffer(), dst.raw_buffer());
            Image result(W, H, 1);
            CUDA_OK(cudaDeviceSynchronize());
            CUDA_OK(cudaMemcpy(result.data.data(), out, sizeof(float) * W * H, cudaMemcpyDeviceToHost));
            EXPECT_TRUE(testing::within_relative_l2(
                reference::plane(result, 0),
                reference::filter_2d({g, g}, reference::plane(input, 0), boundary), 1e-5))
                << algorithm_name(algorithm) << " " << boundary_name(boundary);
        }
    CUDA_OK(cudaFree(in));
    CUDA_OK(cudaFree(out));
    if (!skipped.empty()) GTEST_SKIP() << skipped;
}

// Takes device memory until about `leave` bytes remain free, in the largest pieces the device gives;
// frees it when destroyed.
class DeviceMemoryHog {
public:
    explicit DeviceMemoryHog(size_t leave) {
        for (size_t piece = size_t(1) << 34; piece >= (size_t(1) << 20);) {
            size_t free = 0, total = 0;
            if (cudaMemGetInfo(&free, &total) != cudaSuccess || free <= leave) break;
            void *p = nullptr;
            if (free - leave >= piece && cudaMalloc(&p, piece) == cudaSuccess)
                pieces_.push_back(p);
            else
                piece /= 2;
        }
        cudaGetLastError();  // the refused pieces are expected
    }
    ~DeviceMemoryHog() {
        for (void *p : pieces_) cudaFree(p);
    }
    size_t free_now() const {
        size_t free = 0, total = 0;
        cudaMemGetInfo(&free, &total);
        return free;
    }

private:
    std::vector<void *> pieces_;
};

// A device without room for the image: the plan says so and throws, and runs again once the memory
// is back; the command line fails with that one line, status 1, and no output file.
TEST(CudaApi, DeviceOutOfMemoryIsAClearErrorAndRecoverable) {
    std::string why;
    if (testing::cuda_unavailable(why)) GTEST_SKIP() << why;
    const int W = 4096, H = 4096;
    auto rng = testing::rng_for_test();
    const Image input = testing::random_image(rng, W, H, 1);
    const RecursiveFilter g = van_vliet_gaussian(4.0);
    // A plan keeps the device memory of its first run: the plan that meets the full device is new.
    auto make_plan = [&] { return IirPlan({g, g}, W, H, {Boundary::reflect, DeviceChoice::cuda}); };
    IirPlan before = make_plan(), starved = make_plan();
    Image expected(W, H, 1), output(W, H, 1);
    before.run(input, expected);  // also loads the kernels while there is room
    // What that run freed may wait in Halide's cache of device allocations, out of the hog's reach,
    // for the starved plan to reuse (so that it can run with 32 MB free on an H100): give it back.
    halide_cuda_release_unused_device_allocations(nullptr);
    {
        DeviceMemoryHog hog(size_t(32) << 20);
        ASSERT_LT(hog.free_now(), size_t(sizeof(float)) * W * H) << "could not fill the device";
        std::fill(output.data.begin(), output.data.end(), NAN);
        try {
            starved.run(input, output);
            ADD_FAILURE() << "ran with " << hog.free_now() << " bytes of device memory free";
        } catch (const Error &e) {
            EXPECT_NE(std::string(e.what()).find("out of device memory"), std::string::npos) << e.what();
        }
    }
    starved.run(input, output);
    EXPECT_EQ(output.data, expected.data);

    // The command line, in a process of its own: its context needs room, the images do not get it.
    const std::string dir = testing::temporary_folder();
    const int side = 16000;  // two 1 GB float planes on the device
    RawImage big;
    big.height = big.width = side;
    big.channels = 1;
    big.type = SampleType::f32;
    big.bytes.assign(size_t(side) * side * sizeof(float), 0);
    write_image(dir + "/big.npy", big);
    big.bytes = {};
    DeviceMemoryHog hog(size_t(3) << 29);
    const std::string out = dir + "/out.npy", err = dir + "/err";
    const int raw = std::system(
        (testing::cli_path() + " gaussian " + dir + "/big.npy " + out + " --sigma 4 --device cuda 2>" + err)
            .c_str());
    const std::string message = testing::read_bytes(err);
    EXPECT_TRUE(WIFEXITED(raw) && WEXITSTATUS(raw) == 1) << message;
    EXPECT_EQ(message.rfind("cascade: error: ", 0), 0u) << message;
    EXPECT_NE(message.find("out of device memory"), std::string::npos) << message;
    EXPECT_EQ(std::count(message.begin(), message.end(), '\n'), 1) << message;
    EXPECT_FALSE(std::filesystem::exists(out));
}

#else

TEST(CudaApi, DeviceOutOfMemoryIsAClearErrorAndRecoverable) {
    GTEST_SKIP() << "built without the CUDA runtime API (no CUDA compiler at configure time)";
}

TEST(CudaApi, BlursTheCallersDeviceMemoryOnTheCallersStream) {
    GTEST_SKIP() << "built without the CUDA runtime API (no CUDA compiler at configure time)";
}

#endif

}  // namespace
}  // namespace cascade
