#ifndef C_OBJECT_STORAGE_OPENSSL_SHIM_H
#define C_OBJECT_STORAGE_OPENSSL_SHIM_H

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#endif
