/* resource.h - the table of files embedded in the binary (see common.h). */
#ifndef ORD_RESOURCE_H
#define ORD_RESOURCE_H
#include "core/common.h"
#endif
