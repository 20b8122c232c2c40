"""English titles of the seed pages' section headings (the pages are in Chinese).

A case's ``section`` keeps the page's own heading, so it can be found in the
page; :func:`english` gives the English title reports show beside it.  Each
heading is translated part by part (``"Hook功能 / HookBackward算子"`` ->
``"Hooks / The HookBackward operator"``); a notebook cell marker such as
``(In [4])`` is kept.  A heading without a translation is shown as it is.
"""
import re

__all__ = ["PARTS", "english"]

PARTS = {
    "执行单算子": "Running a single operator",
    "执行函数": "Running a function",
    "执行网络": "Running a network",
    "执行普通函数": "Running a plain function",
    "执行方式": "Execution",
    "提升PyNative性能": "Faster PyNative with ms_function",
    "PyNative下同步执行": "Synchronous execution in PyNative",
    "动态图模式下同步执行": "Synchronous execution in PyNative mode",
    "Hook功能": "Hooks",
    "HookBackward算子": "The HookBackward operator",
    "nn.Cell对象的register_backward_hook功能": "nn.Cell.register_backward_hook",
    "Cell对象的register_forward_pre_hook功能": "Cell.register_forward_pre_hook",
    "Cell对象的register_forward_hook功能": "Cell.register_forward_hook",
    "Cell对象的register_backward_hook功能": "Cell.register_backward_hook",
    "自定义bprop功能": "Custom bprop",
    "PyNative模式说明": "About PyNative mode",
    "性能优化": "Performance",
    "梯度求取": "Computing gradients",
    "动静统一": "One programming model for both modes",
    "JIT Fallback": "JIT Fallback",
    "动态图模式下的操作": "Working in PyNative mode",
    "网络基本构成单元 Cell": "Cell, the building block of networks",
    "单元测试": "Unit tests",
    "Cell常用的方法介绍": "Common Cell methods",
    "手动混合精度": "Manual mixed precision",
    "参数初始化": "Parameter initialisation",
    "参数初始化API对比": "Initialisation APIs compared",
    "自定义初始化参数": "Custom initialisation",
    "参数冻结": "Freezing parameters",
    "参数保存和加载": "Saving and loading parameters",
    "自定义反向": "Custom backward functions",
    "动态shape规避策略": "Avoiding dynamic shapes",
    "网络执行过程中有引发shape变化的操作": "Operations that change shapes while the network runs",
    "控制流不同分支引入shape上的变化": "Control-flow branches that change shapes",
    "随机数策略对比": "Random numbers compared",
    "随机种子和生成器": "Seeds and generators",
    "动静态图介绍": "Graph and PyNative modes",
    "模式切换": "Switching modes",
    "静态图": "Graph mode",
    "静态图模式代码示例": "A graph-mode example",
    "动态图": "PyNative mode",
    "动态图模式执行原理": "How PyNative mode executes",
    "动态图模式自动微分原理": "How PyNative mode differentiates",
    "动态图模式下的控制流": "Control flow in PyNative mode",
}

_CELL = re.compile(r"\s*(\(In \[\d+\]\))$")


def english(section):
    """The English title of a section heading (``"a / b"``: each part translated)."""
    cell = _CELL.search(section)
    body = section[:cell.start()] if cell else section
    parts = [PARTS.get(part.strip(), part.strip()) for part in body.split(" / ")]
    return " / ".join(parts) + (f" {cell.group(1)}" if cell else "")
