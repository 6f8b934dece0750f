/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: a41f9c7a943e7ace36f16aa7516d32c5bd937d79 */

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_stat_pid, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_stat_elapsed, 0, 0, IS_DOUBLE, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_stat_settings, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

#define arginfo_stat_counters arginfo_stat_settings

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_stat_sampler_activate, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

#define arginfo_stat_sampler_active arginfo_stat_sampler_activate

#define arginfo_stat_sampler_deactivate arginfo_stat_sampler_activate


ZEND_FUNCTION(stat_pid);
ZEND_FUNCTION(stat_elapsed);
ZEND_FUNCTION(stat_settings);
ZEND_FUNCTION(stat_counters);
ZEND_FUNCTION(stat_sampler_activate);
ZEND_FUNCTION(stat_sampler_active);
ZEND_FUNCTION(stat_sampler_deactivate);


static const zend_function_entry ext_functions[] = {
	ZEND_NS_FALIAS("stat", pid, stat_pid, arginfo_stat_pid)
	ZEND_NS_FALIAS("stat", elapsed, stat_elapsed, arginfo_stat_elapsed)
	ZEND_NS_FALIAS("stat", settings, stat_settings, arginfo_stat_settings)
	ZEND_NS_FALIAS("stat", counters, stat_counters, arginfo_stat_counters)
	ZEND_NS_FALIAS("stat\\sampler", activate, stat_sampler_activate, arginfo_stat_sampler_activate)
	ZEND_NS_FALIAS("stat\\sampler", active, stat_sampler_active, arginfo_stat_sampler_active)
	ZEND_NS_FALIAS("stat\\sampler", deactivate, stat_sampler_deactivate, arginfo_stat_sampler_deactivate)
	ZEND_FE_END
};
